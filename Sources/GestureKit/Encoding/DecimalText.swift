/// The one way gestured writes a Double as text, on the standard library alone: rounded half
/// away from zero to `places` decimals (0…9), either without trailing zeros ("0.5", "3") or,
/// `padded`, with exactly `places` of them ("0.50", "3.00", as printf's %.2f). JSON lines, the
/// trace's SVG and legend, the CLI's output, config messages and the benchmarks all use it.
public enum DecimalText {
    /// `x` as text. NaN and infinities are "nan", "inf", "-inf" (a caller that spells them
    /// otherwise checks first); a value too large to scale exactly (beyond 2^53 once scaled) is
    /// written by the standard library.
    public static func string(_ x: Double, places: Int, padded: Bool = false) -> String {
        var bytes: [UInt8] = []
        append(x, places: places, padded: padded, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `x` as `string` writes it to `bytes`, allocating nothing beyond their growth.
    public static func append(_ x: Double, places: Int, padded: Bool = false, to bytes: inout [UInt8]) {
        guard x.isFinite else {
            bytes.append(contentsOf: (x.isNaN ? "nan" : x > 0 ? "inf" : "-inf").utf8)
            return
        }
        let places = min(max(places, 0), 9)
        var scale: Int64 = 1
        for _ in 0..<places { scale *= 10 }
        let scaled = (x * Double(scale)).rounded()  // half away from zero
        guard abs(scaled) < 9.0e15 else {
            bytes.append(contentsOf: x.description.utf8)
            return
        }
        var units = Int64(scaled)
        if units < 0 {
            bytes.append(UInt8(ascii: "-"))
            units = -units
        }
        appendInteger(units / scale, to: &bytes)
        var fraction = units % scale
        var digits = places
        if !padded {
            guard fraction != 0 else { return }
            while fraction % 10 == 0 {
                fraction /= 10
                digits -= 1
            }
        }
        guard digits > 0 else { return }
        bytes.append(UInt8(ascii: "."))
        var divisor: Int64 = 1
        for _ in 1..<digits { divisor *= 10 }
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8((fraction / divisor) % 10))
            divisor /= 10
        }
    }

    /// The decimal digits of `value`, with "-" before a negative one.
    public static func appendInteger(_ value: Int64, to bytes: inout [UInt8]) {
        var v = value
        if v < 0 {
            bytes.append(UInt8(ascii: "-"))
            v = -v
        }
        var divisor: Int64 = 1
        while v / divisor >= 10 { divisor *= 10 }
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8((v / divisor) % 10))
            divisor /= 10
        }
    }
}
