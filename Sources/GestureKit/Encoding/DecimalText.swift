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

    /// The most bytes `write` writes for one value.
    public static let maxBytes = 32

    /// Appends `x` as `string` writes it to `bytes`, allocating nothing beyond their growth.
    public static func append(_ x: Double, places: Int, padded: Bool = false, to bytes: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maxBytes) { buffer in
            let n = write(x, places: places, padded: padded, to: buffer.baseAddress!)
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<n]))
        }
    }

    /// Writes `x` as `string` writes it at `out`, which has room for `maxBytes`; returns how many
    /// bytes it wrote. Through a pointer, every fraction digit written and the trailing zeros
    /// then dropped: appending to an array byte by byte and counting digits first cost ~530
    /// instructions a value, ~360 with a pointer alone (callgrind, 2026-11-26).
    public static func write(_ x: Double, places: Int, padded: Bool = false, to out: UnsafeMutablePointer<UInt8>) -> Int {
        func text(_ s: StaticString) -> Int {
            out.update(from: s.utf8Start, count: s.utf8CodeUnitCount)
            return s.utf8CodeUnitCount
        }
        guard x.isFinite else { return x.isNaN ? text("nan") : x > 0 ? text("inf") : text("-inf") }
        let places = min(max(places, 0), 9)
        let scale = powersOfTen[places]
        let scaled = (x * Double(scale)).rounded()  // half away from zero
        guard abs(scaled) < 9.0e15 else {
            var n = 0
            for b in x.description.utf8 where n < maxBytes {
                out[n] = b
                n += 1
            }
            return n
        }
        var n = 0
        var units = Int64(scaled)
        if units < 0 {
            out[0] = UInt8(ascii: "-")
            n = 1
            units = -units
        }
        n += writeInteger(units / scale, to: out + n)
        var fraction = units % scale
        guard places > 0, padded || fraction != 0 else { return n }
        out[n] = UInt8(ascii: ".")
        n += 1
        var i = n + places
        while i > n {
            i -= 1
            out[i] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: fraction % 10)
            fraction /= 10
        }
        n += places
        // Not padded, the fraction is not 0: a digit other than 0 stops this before the ".".
        if !padded { while out[n - 1] == UInt8(ascii: "0") { n -= 1 } }
        return n
    }

    private static let powersOfTen: [Int64] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000]

    /// The decimal digits of `value`, with "-" before a negative one.
    public static func appendInteger(_ value: Int64, to bytes: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maxBytes) { buffer in
            let n = writeInteger(value, to: buffer.baseAddress!)
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<n]))
        }
    }

    /// Writes `appendInteger`'s digits at `out` (room for 20 bytes); returns how many.
    public static func writeInteger(_ value: Int64, to out: UnsafeMutablePointer<UInt8>) -> Int {
        var n = 0
        if value < 0 {
            out[0] = UInt8(ascii: "-")
            n = 1
        }
        var v = value.magnitude
        var count = 1
        var rest = v / 10
        while rest > 0 {
            count += 1
            rest /= 10
        }
        var i = n + count
        while i > n {
            i -= 1
            out[i] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: v % 10)
            v /= 10
        }
        return n + count
    }
}
