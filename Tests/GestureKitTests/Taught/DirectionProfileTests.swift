import Testing
@testable import GestureKit

/// The envelope's lower bound (DirectionProfile.lowerBound) never exceeds the DTW distance it
/// stands in for: were it to, ShapeMatcher would skip an example that matches.
@Suite struct DirectionProfileTests {
    /// A wandering profile: each piece turns a little from the last, now and then sharply,
    /// across ±π too.
    static func profile(_ state: inout UInt64, count: Int) -> [Double] {
        var out: [Double] = []
        var a = 0.0
        for _ in 0..<count {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let u = Double(state >> 11) / Double(1 << 53)
            a += (u - 0.5) * (u > 0.9 ? 4 : 0.6)
            out.append(DirectionProfile.wrap(a))
        }
        return out
    }

    @Test func theEnvelopeBoundsTheDistanceFromBelow() {
        var state: UInt64 = 42
        let n = ShapeMatcher.segments, band = ShapeMatcher.band
        var row = [Double](repeating: 0, count: n + 1), previous = row
        var tight = 0
        for _ in 0..<500 {
            let a = Self.profile(&state, count: n), b = Self.profile(&state, count: n)
            var center: [Double] = [], half: [Double] = []
            DirectionProfile.envelope(b[...], band: band, center: &center, halfWidth: &half)
            #expect(center.count == n && half.allSatisfy { $0 >= 0 && $0 <= Double.pi })
            let bound = a.withUnsafeBufferPointer { a in
                center.withUnsafeBufferPointer { c in
                    half.withUnsafeBufferPointer { h in DirectionProfile.lowerBound(a, center: c, halfWidth: h, limit: .infinity) }
                }
            }
            let d = a.withUnsafeBufferPointer { a in
                b.withUnsafeBufferPointer { b in
                    row.withUnsafeMutableBufferPointer { r in
                        previous.withUnsafeMutableBufferPointer { p in
                            DirectionProfile.distance(a, b, band: band, limit: .infinity, row: r, previous: p)
                        }
                    }
                }
            }
            #expect(bound <= d * Double(n) + 1e-9, "bound \(bound) > distance \(d * Double(n))")
            if bound > 0.5 * d * Double(n) { tight += 1 }
        }
        // A bound of 0 would pass too and prune nothing: it must be close for different profiles.
        #expect(tight > 250, "\(tight)")
    }

    /// Total turning: a square's outline turns three quarter turns between its four sides, the
    /// same drawn backwards or turned; a zigzag's alternating turns add up, not cancel.
    @Test func turningSumsTheAbsoluteTurns() {
        let square = resampled([Point(x: 0, y: 0), Point(x: 10, y: 0), Point(x: 10, y: 10), Point(x: 0, y: 10), Point(x: 0, y: 0)])
        var forward: [Double] = [], backward: [Double] = [], turned: [Double] = []
        DirectionProfile.angles(of: square, rotate: false, into: &forward)
        DirectionProfile.angles(of: square, rotate: true, reversed: true, into: &backward)
        DirectionProfile.angles(of: square.map { Point(x: -$0.y, y: $0.x) }, rotate: false, into: &turned)
        let t = DirectionProfile.turning(forward[...])
        #expect(abs(t - 1.5 * Double.pi) < 0.05, "\(t)")
        #expect(abs(DirectionProfile.turning(backward[...]) - t) < 1e-9)
        #expect(abs(DirectionProfile.turning(turned[...]) - t) < 1e-9)
        let zigzag = resampled([Point(x: 0, y: 0), Point(x: 10, y: 10), Point(x: 20, y: 0), Point(x: 30, y: 10)])
        var z: [Double] = []
        DirectionProfile.angles(of: zigzag, rotate: false, into: &z)
        #expect(abs(DirectionProfile.turning(z[...]) - Double.pi) < 0.05)
    }

    /// The turning correction: 1 for equal turnings or exponent 0, symmetric, the square root of
    /// the ratio at ½, and a near-straight stroke counts as `leastTurning`.
    @Test func turningFactorIsTheRatioToTheExponent() {
        #expect(ShapeMatcher.turningFactor(3, 3, exponent: 0.5) == 1)
        #expect(ShapeMatcher.turningFactor(2, 8, exponent: 0) == 1)
        #expect(ShapeMatcher.turningFactor(2, 8, exponent: 0.5) == 2)
        #expect(ShapeMatcher.turningFactor(8, 2, exponent: 0.5) == 2)
        #expect(ShapeMatcher.turningFactor(2, 8, exponent: 1) == 4)
        #expect(abs(ShapeMatcher.turningFactor(2, 8, exponent: 0.25) - 2.0.squareRoot()) < 1e-12)
        #expect(ShapeMatcher.turningFactor(0, 0.01, exponent: 0.5) == 1)
    }

    /// A stroke that turns through twice the example's total (a bracket's two corners against
    /// a brace's four turns, in kind) scores lower with the correction than without, and a
    /// copy of the example scores the same either way.
    @Test func theMatcherScoresDifferentTurningLower() throws {
        let bracket = resampled([Point(x: 10, y: 0), Point(x: 0, y: 0), Point(x: 0, y: 30), Point(x: 10, y: 30)])
        let brace = resampled([Point(x: 10, y: 0), Point(x: 3, y: 2), Point(x: 3, y: 13), Point(x: 0, y: 15),
                               Point(x: 3, y: 17), Point(x: 3, y: 28), Point(x: 10, y: 30)])
        let shape = TaughtShape(name: "brace", examples: [ShapeExample(points: ShapeExample.normalized(brace), source: "", date: "")])
        let corrected = ShapeMatcher(shapes: [shape]), plain = ShapeMatcher(shapes: [shape], turningExponent: 0)
        let c = try #require(corrected.ranked(bracket).first).score, p = try #require(plain.ranked(bracket).first).score
        #expect(c < p, "corrected \(c), plain \(p)")
        let copy = shape.examples[0].points
        let same = try #require(corrected.ranked(copy).first).score, samePlain = try #require(plain.ranked(copy).first).score
        #expect(abs(same - 1) < 1e-9 && abs(samePlain - 1) < 1e-9, "\(same) \(samePlain)")
    }
}

/// A polyline through `corners` resampled as a taught example is (ShapeExample.pointCount points).
private func resampled(_ corners: [Point]) -> [Point] {
    var s = Stroke()
    for p in corners { s.append(mm: p, position: p) }
    var out: [Point] = []
    s.resample(count: ShapeExample.pointCount, into: &out)
    return out
}
