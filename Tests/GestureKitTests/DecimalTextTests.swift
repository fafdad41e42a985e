import Testing
import GestureKit

/// The one number formatter (JSON lines, SVG, CLI, config messages, benchmarks).
@Suite struct DecimalTextTests {
    @Test func trimmedDropsTrailingZerosAndTheDot() {
        #expect(DecimalText.string(0.5, places: 4) == "0.5")
        #expect(DecimalText.string(3, places: 2) == "3")
        #expect(DecimalText.string(344.954, places: 2) == "344.95")
        #expect(DecimalText.string(0.35, places: 9) == "0.35")
        #expect(DecimalText.string(-12.30001, places: 3) == "-12.3")
    }

    @Test func paddedKeepsExactlyThePlaces() {
        #expect(DecimalText.string(0.5, places: 2, padded: true) == "0.50")
        #expect(DecimalText.string(7, places: 3, padded: true) == "7.000")
        #expect(DecimalText.string(0.001, places: 3, padded: true) == "0.001")
        #expect(DecimalText.string(2.5, places: 0, padded: true) == "3")
    }

    @Test func roundsHalfAwayFromZeroAndNeverWritesMinusZero() {
        #expect(DecimalText.string(-0.25, places: 1, padded: true) == "-0.3")
        #expect(DecimalText.string(0.125, places: 2) == "0.13")
        #expect(DecimalText.string(-0.0001, places: 2, padded: true) == "0.00")
        #expect(DecimalText.string(-0.0, places: 2) == "0")
    }

    @Test func nonFiniteAndHugeValuesAreSpelledByTheStandardLibrary() {
        #expect(DecimalText.string(.nan, places: 2) == "nan")
        #expect(DecimalText.string(-.infinity, places: 2) == "-inf")
        #expect(DecimalText.string(1e20, places: 2) == "1e+20")
        #expect(DecimalText.string(1.5, places: 42) == "1.5", "places are capped at 9")
    }

    @Test func integersKeepTheirSign() {
        var bytes: [UInt8] = []
        DecimalText.appendInteger(-907, to: &bytes)
        bytes.append(UInt8(ascii: " "))
        DecimalText.appendInteger(0, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "-907 0")
    }

    @Test func writesWhatThePlainRuleWritesForEveryKindOfValue() {
        // Edges: halves at every scale (and the doubles either side), the 2^53 limit of exact
        // scaling, zeros, subnormals, non-finite values; then values of every magnitude.
        var values: [Double] = [0, -0.0, .nan, -.nan, .infinity, -.infinity, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
                                .leastNonzeroMagnitude, -.leastNormalMagnitude, 9e15, 8.999999999999999e15, 4503599627370495.5, 1e20]
        for places in 0...9 {
            let scale = (0..<places).reduce(1.0) { x, _ in x * 10 }
            for units in [0.0, 1, 5, 15, 25, 49, 99, 100, 12345, 999_999, 1e9, 4.5e15, 8.99e15, 9.1e15] {
                for offset in [-1, -0.5, -0.49999, 0, 0.49999, 0.5, 1] {
                    let v = (units + offset) / scale
                    values += [v, -v, v.nextUp, v.nextDown, -v.nextUp, -v.nextDown]
                }
            }
        }
        var noise = Synthetic.Noise(seed: 27)
        for _ in 0..<4_000 {
            let magnitude = (0..<Int((noise.next() + 1) * 14)).reduce(1e-9) { x, _ in x * 10 }
            values.append(noise.next() * magnitude)
            values.append((noise.next() * 2e6).rounded() / [1.0, 2, 4, 8, 10, 100, 1000, 1e6][Int((noise.next() + 1) * 4)])
        }
        var mismatches: [String] = []
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: DecimalText.maxBytes) { out in
            for x in values {
                for places in [-1, 0, 1, 2, 3, 6, 9, 12] {
                    for padded in [false, true] {
                        let n = DecimalText.write(x, places: places, padded: padded, to: out.baseAddress!)
                        let written = String(decoding: UnsafeBufferPointer(rebasing: out[..<n]), as: UTF8.self)
                        let expected = Self.plainRule(x, places: places, padded: padded)
                        if written != expected { mismatches.append("\(x) places \(places) padded \(padded): \(written), not \(expected)") }
                    }
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) of \(values.count * 16): \(mismatches.prefix(5))")
    }

    @Test func integersAsTheStandardLibraryWritesThem() {
        var noise = Synthetic.Noise(seed: 9)
        var values: [Int64] = [0, 1, -1, 9, 10, 99, 100, 101, -100, Int64.max, Int64.min, Int64.max - 1, Int64.min + 1]
        for digits in 1...18 {
            let p = (1..<digits).reduce(Int64(1)) { x, _ in x * 10 }
            values += [p, p - 1, -p, -(p - 1), p * 10 - 1, Int64(noise.next() * Double(p))]
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { out in
            for v in values {
                let n = DecimalText.writeInteger(v, to: out.baseAddress!)
                #expect(String(decoding: UnsafeBufferPointer(rebasing: out[..<n]), as: UTF8.self) == String(v))
            }
        }
    }

    /// `write`'s rule spelled plainly, with Strings (the formatter before its fixed-point
    /// rewrite): scaled by 10^places, rounded half away from zero, the digits split at places.
    private static func plainRule(_ x: Double, places: Int, padded: Bool) -> String {
        guard x.isFinite else { return x.isNaN ? "nan" : x > 0 ? "inf" : "-inf" }
        let places = min(max(places, 0), 9)
        let scale = (0..<places).reduce(Int64(1)) { x, _ in x * 10 }
        let scaled = (x * Double(scale)).rounded()
        guard abs(scaled) < 9.0e15 else { return String(x.description.prefix(DecimalText.maxBytes)) }
        let units = Int64(scaled)
        let integer = String(units.magnitude / UInt64(scale))
        let digits = places == 0 ? "" : String(units.magnitude % UInt64(scale))
        var fraction = String(repeating: "0", count: places - digits.count) + digits
        if !padded { while fraction.last == "0" { fraction.removeLast() } }
        return (units < 0 ? "-" : "") + integer + (fraction.isEmpty ? "" : "." + fraction)
    }
}
