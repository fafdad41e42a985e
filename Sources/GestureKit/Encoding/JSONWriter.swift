/// A minimal JSON writer for the one-object-per-line output (events, frames, replies).
/// Written by hand so the core needs no Foundation, and writing bytes rather than appending to a
/// String keeps encoding cheap: one buffer, no per-character String work, numbers formatted
/// with integer arithmetic.
public struct JSONWriter {
    public private(set) var bytes: [UInt8]
    private var needsComma = false

    public init(capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// The JSON written so far.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Starts over, keeping the buffer's capacity.
    public mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        needsComma = false
    }

    public mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
    }

    public mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    public mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
    }

    public mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// Writes `"name":` so that the next value belongs to it.
    public mutating func key(_ name: String) {
        separate()
        appendQuoted(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    public mutating func string(_ s: String) {
        separate()
        appendQuoted(s)
        needsComma = true
    }

    public mutating func bool(_ b: Bool) {
        separate()
        appendASCII(b ? "true" : "false")
        needsComma = true
    }

    public mutating func int(_ i: Int) {
        separate()
        DecimalText.appendInteger(Int64(i), to: &bytes)
        needsComma = true
    }

    /// A number rounded to `decimals` places (at most 9), without trailing zeros (DecimalText);
    /// NaN and infinities become null (JSON has neither).
    public mutating func number(_ x: Double, decimals: Int = 4) {
        separate()
        needsComma = true
        guard x.isFinite else {
            appendASCII("null")
            return
        }
        DecimalText.append(x, places: decimals, to: &bytes)
    }

    public mutating func null() {
        separate()
        appendASCII("null")
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

    /// `"name":{…}`, its members written by `members`.
    public mutating func object(_ name: String, _ members: (inout JSONWriter) -> Void) {
        key(name)
        beginObject()
        members(&self)
        endObject()
    }

    /// `"name":[{…},{…}]`: one object per element, its members written by `members`.
    public mutating func objects<S: Sequence>(_ name: String, _ elements: S, _ members: (inout JSONWriter, S.Element) -> Void) {
        key(name)
        beginArray()
        for e in elements {
            beginObject()
            members(&self, e)
            endObject()
        }
        endArray()
    }

    /// `"name":["…","…"]`
    public mutating func strings<S: Sequence<String>>(_ name: String, _ values: S) {
        key(name)
        beginArray()
        for v in values { string(v) }
        endArray()
    }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    private mutating func appendASCII(_ s: StaticString) {
        s.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }


    private static func hexDigit(_ v: UInt8) -> UInt8 {
        v < 10 ? UInt8(ascii: "0") + v : UInt8(ascii: "a") + v - 10
    }

    private mutating func appendQuoted(_ s: String) {
        bytes.append(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { utf8 in
            for b in utf8 {
                switch b {
                case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\\")); bytes.append(b)
                case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\")); bytes.append(b)
                case UInt8(ascii: "\n"): bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "n"))
                case UInt8(ascii: "\r"): bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "r"))
                case UInt8(ascii: "\t"): bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "t"))
                case 0..<0x20:
                    appendASCII("\\u00")
                    bytes.append(Self.hexDigit(b >> 4))
                    bytes.append(Self.hexDigit(b & 0xf))
                default: bytes.append(b)
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
