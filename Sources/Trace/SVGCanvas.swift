import Evdev
import GestureKit

/// A minimal SVG writer: elements appended to one string, numbers written with a fixed number
/// of decimals (no Foundation: the gestured binary does not link it), text escaped. Pure string building, so a
/// trace can be tested by reading the document it produces.
public struct SVGCanvas {
    public let width: Double
    public let height: Double
    public private(set) var body = ""

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    public mutating func open(_ tag: String, _ attributes: [(String, String)] = []) {
        body += "<" + tag + Self.attributes(attributes) + ">\n"
    }

    public mutating func close(_ tag: String) {
        body += "</" + tag + ">\n"
    }

    /// An empty element, or one holding `text` (escaped).
    public mutating func element(_ tag: String, _ attributes: [(String, String)], text: String? = nil) {
        if let text {
            body += "<" + tag + Self.attributes(attributes) + ">" + Self.escape(text) + "</" + tag + ">\n"
        } else {
            body += "<" + tag + Self.attributes(attributes) + "/>\n"
        }
    }

    /// A polyline through `points` (with the given extra attributes).
    public mutating func polyline(_ points: [Point], _ attributes: [(String, String)]) {
        var list = ""
        list.reserveCapacity(points.count * 14)
        for (i, p) in points.enumerated() {
            if i > 0 { list += " " }
            list += Self.number(p.x) + "," + Self.number(p.y)
        }
        element("polyline", [("points", list), ("fill", "none")] + attributes)
    }

    /// The whole document.
    public var document: String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Self.number(width, digits: 0))\" "
            + "height=\"\(Self.number(height, digits: 0))\" viewBox=\"0 0 \(Self.number(width, digits: 0)) "
            + "\(Self.number(height, digits: 0))\" font-family=\"DejaVu Sans, sans-serif\">\n"
            + body + "</svg>\n"
    }

    static func attributes(_ list: [(String, String)]) -> String {
        var s = ""
        for (k, v) in list { s += " " + k + "=\"" + escape(v) + "\"" }
        return s
    }

    /// XML-escapes text and attribute values.
    public static func escape(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for ch in s {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(ch)
            }
        }
        return out
    }

    /// `x` with `digits` decimals (DecimalText, padded): "12.35", -0.5 → "-0.50". Non-finite
    /// values are written "∞"/"-∞"/"–" (text only: never used as coordinates).
    public static func number(_ x: Double, digits: Int = 2) -> String {
        guard x.isFinite else { return x.isNaN ? "–" : (x > 0 ? "∞" : "-∞") }
        return DecimalText.string(x, places: digits, padded: true)
    }
}
