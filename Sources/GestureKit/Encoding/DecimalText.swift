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
    /// bytes it wrote. Fixed point: `x` scaled by 10^places and rounded once; the integer part and
    /// the fraction (its trailing zeros dropped first) written back to front, two digits a step,
    /// where the digit count puts them: fewer steps than a division per digit, libm's round and
    /// the zeros dropped after (speed: docs/architecture.md).
    public static func write(_ x: Double, places: Int, padded: Bool = false, to out: UnsafeMutablePointer<UInt8>) -> Int {
        var places = min(max(places, 0), 9)
        let scale = powersOfTen[places]
        let scaled = x * Double(Int64(truncatingIfNeeded: scale))
        guard abs(scaled) < 9.0e15 else { return writeUnscaled(x, to: out) }
        // Rounded half away from zero without libm's round (a call): below 2^53 the truncation
        // is exact, and so is the fraction it leaves.
        let truncated = Int64(scaled)
        let rest = scaled - Double(truncated)
        var units = truncated.magnitude
        if abs(rest) >= 0.5 { units += 1 }
        let negative = truncated < 0 || rest <= -0.5
        let integer = units / scale
        var fraction = units &- integer &* scale
        if !padded {
            if fraction == 0 {
                places = 0
            } else {
                while fraction % 10 == 0 {
                    fraction /= 10
                    places &-= 1
                }
            }
        }
        // The sign, overwritten by the first digit when there is none.
        out[0] = UInt8(ascii: "-")
        let digits = digitCount(integer)
        var n = (negative ? 1 : 0) &+ digits
        writeDigits(integer, count: digits, endingAt: out + n)
        guard places > 0 else { return n }
        out[n] = UInt8(ascii: ".")
        n &+= 1 &+ places
        writeDigits(fraction, count: places, endingAt: out + n)
        return n
    }

    /// NaN, an infinity, or a value too large to scale exactly (as the standard library writes
    /// it): out of `write`'s way, which then keeps no registers for them.
    @inline(never)
    private static func writeUnscaled(_ x: Double, to out: UnsafeMutablePointer<UInt8>) -> Int {
        if !x.isFinite {
            let text: StaticString = x.isNaN ? "nan" : x > 0 ? "inf" : "-inf"
            out.update(from: text.utf8Start, count: text.utf8CodeUnitCount)
            return text.utf8CodeUnitCount
        }
        var n = 0
        for b in x.description.utf8 where n < maxBytes {
            out[n] = b
            n += 1
        }
        return n
    }

    /// The decimal digits of `value`, with "-" before a negative one.
    public static func appendInteger(_ value: Int64, to bytes: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maxBytes) { buffer in
            let n = writeInteger(value, to: buffer.baseAddress!)
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<n]))
        }
    }

    /// Writes `appendInteger`'s digits at `out` (room for 20 bytes); returns how many.
    public static func writeInteger(_ value: Int64, to out: UnsafeMutablePointer<UInt8>) -> Int {
        // The sign, overwritten by the first digit when there is none.
        out[0] = UInt8(ascii: "-")
        let digits = digitCount(value.magnitude)
        let n = (value < 0 ? 1 : 0) + digits
        writeDigits(value.magnitude, count: digits, endingAt: out + n)
        return n
    }

    /// How many decimal digits `v` has (1 for 0): log10 from log2 (1233 / 4096 ≈ log10 2),
    /// then one comparison, not a loop over the digits.
    @inline(__always)
    private static func digitCount(_ v: UInt64) -> Int {
        let w = v | 1  // as many digits as `v`, and a log2
        let guess = ((64 &- w.leadingZeroBitCount) &* 1233) >> 12
        return guess &+ (w < powersOfTen[guess] ? 0 : 1)
    }

    /// 10^0 … 10^19.
    private static let powersOfTen: [UInt64] = [
        1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000, 10_000_000_000,
        100_000_000_000, 1_000_000_000_000, 10_000_000_000_000, 100_000_000_000_000, 1_000_000_000_000_000,
        10_000_000_000_000_000, 100_000_000_000_000_000, 1_000_000_000_000_000_000, 10_000_000_000_000_000_000,
    ]

    /// The last `count` decimal digits of `v`, leading zeros included, the last at `end - 1`:
    /// two a step from `digitPairs`, half the divisions of one digit at a time.
    @inline(__always)
    private static func writeDigits(_ v: UInt64, count: Int, endingAt end: UnsafeMutablePointer<UInt8>) {
        var v = v
        var p = end
        var left = count
        let pairs = UnsafeRawPointer(digitPairs.utf8Start)
        while left >= 2 {
            let (q, r) = v.quotientAndRemainder(dividingBy: 100)
            p -= 2
            UnsafeMutableRawPointer(p).storeBytes(of: pairs.loadUnaligned(fromByteOffset: Int(r) &* 2, as: UInt16.self), as: UInt16.self)
            v = q
            left &-= 2
        }
        if left == 1 { (p - 1).pointee = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v % 10) }
    }

    /// "00", "01", … "99".
    private static let digitPairs: StaticString = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
}
