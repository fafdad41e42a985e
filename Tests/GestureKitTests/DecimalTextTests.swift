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
}
