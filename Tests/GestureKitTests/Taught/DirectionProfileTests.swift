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
}
