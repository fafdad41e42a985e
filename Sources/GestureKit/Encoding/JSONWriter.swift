/// A minimal JSON writer for the one-object-per-line output (events, frames, replies).
/// Written by hand so the core needs no Foundation and encoding stays cheap.
public struct JSONWriter {
    public private(set) var text: String
    private var needsComma = false

    public init(capacity: Int = 256) {
        text = ""
        text.reserveCapacity(capacity)
    }

    public mutating func beginObject() {
        separate()
        text.append("{")
        needsComma = false
    }

    public mutating func endObject() {
        text.append("}")
        needsComma = true
    }

    public mutating func beginArray() {
        separate()
        text.append("[")
        needsComma = false
    }

    public mutating func endArray() {
        text.append("]")
        needsComma = true
    }

    /// Writes `"name":` so that the next value belongs to it.
    public mutating func key(_ name: String) {
        separate()
        Self.appendQuoted(name, to: &text)
        text.append(":")
        needsComma = false
    }

    public mutating func string(_ s: String) {
        separate()
        Self.appendQuoted(s, to: &text)
        needsComma = true
    }

    public mutating func bool(_ b: Bool) {
        separate()
        text.append(b ? "true" : "false")
        needsComma = true
    }

    public mutating func int(_ i: Int) {
        separate()
        text.append(String(i))
        needsComma = true
    }

    /// A number rounded to `decimals` places; NaN and infinities become null (JSON has neither).
    public mutating func number(_ x: Double, decimals: Int = 4) {
        separate()
        guard x.isFinite else {
            text.append("null")
            needsComma = true
            return
        }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let rounded = (x * scale).rounded() / scale
        if rounded == rounded.rounded(), abs(rounded) < 1e15 {
            text.append(String(Int64(rounded)))
        } else {
            text.append(rounded.description)
        }
        needsComma = true
    }

    public mutating func null() {
        separate()
        text.append("null")
        needsComma = true
    }

    /// `"name":{"x":…,"y":…}`
    public mutating func point(_ name: String, _ p: Point, decimals: Int = 4) {
        key(name)
        beginObject()
        key("x"); number(p.x, decimals: decimals)
        key("y"); number(p.y, decimals: decimals)
        endObject()
    }

    private mutating func separate() {
        if needsComma { text.append(",") }
    }

    static func appendQuoted(_ s: String, to out: inout String) {
        out.append("\"")
        for u in s.unicodeScalars {
            switch u {
            case "\"": out.append("\\\"")
            case "\\": out.append("\\\\")
            case "\n": out.append("\\n")
            case "\r": out.append("\\r")
            case "\t": out.append("\\t")
            case let c where c.value < 0x20:
                let hex = String(c.value, radix: 16)
                out.append("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
            default: out.unicodeScalars.append(u)
            }
        }
        out.append("\"")
    }
}
