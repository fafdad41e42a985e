import Glibc
import Testing
import GestureKit

/// The core's one trigonometry (Angle) against Glibc's, to the accuracy its header states.
@Suite struct AngleTests {
    /// A fixed pseudo-random sequence in [0, 1): the same points on every run.
    struct Uniform {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        mutating func next() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
    }

    @Test func atan2IsWithin1e15OfGlibcEverywhere() {
        var u = Uniform()
        var worst = 0.0
        for _ in 0..<200_000 {
            // Magnitudes from 1e-6 to 1e6 in every quadrant, so y/x spans 1e-12 … 1e12.
            let y = (u.next() * 2 - 1) * Glibc.pow(10, u.next() * 12 - 6)
            let x = (u.next() * 2 - 1) * Glibc.pow(10, u.next() * 12 - 6)
            worst = max(worst, abs(Angle.atan2(y, x) - Glibc.atan2(y, x)))
        }
        #expect(worst <= 1e-15)
        let axes: [(Double, Double)] = [(0, 1), (1, 0), (0, -1), (-1, 0), (1, 1), (-1, -1), (1e-300, -1), (-1e-300, -1)]
        for (y, x) in axes { #expect(abs(Angle.atan2(y, x) - Glibc.atan2(y, x)) <= 1e-15, "atan2(\(y), \(x))") }
        #expect(Angle.atan2(0, 0) == 0)
        #expect(Angle.between(Point(x: 1, y: 0), Point(x: 0, y: 1)) == Angle.pi / 2, "y down: a clockwise quarter turn is +π/2")
    }

    @Test func sinAndCosAreWithin2e15OfGlibcOverFourPi() {
        var u = Uniform()
        var worst = 0.0
        for _ in 0..<200_000 {
            let a = (u.next() * 2 - 1) * 4 * Angle.pi
            worst = max(worst, abs(Angle.sin(a) - Glibc.sin(a)), abs(Angle.cos(a) - Glibc.cos(a)))
        }
        #expect(worst <= 2e-15)
    }
}
