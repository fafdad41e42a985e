import GestureKit

/// Times the Taubin circle fit on noisy circles of a few sizes.
enum CircleFitBench {
    struct Result {
        var points: Int
        var nanoseconds: Distribution
    }

    static func run(sizes: [Int], repetitions: Int = 2000) -> [Result] {
        sizes.map { n in
            let points = noisyCircle(count: n)
            var samples: [Double] = []
            samples.reserveCapacity(repetitions)
            var sink = 0.0
            for _ in 0..<repetitions {
                let t0 = Stopwatch.now()
                let fit = CircleFit.taubin(points)
                let t1 = Stopwatch.now()
                sink += fit?.radius ?? 0
                samples.append(Double(t1 - t0))
            }
            precondition(sink > 0, "the fit must find the circle")
            return Result(points: n, nanoseconds: Distribution(samples))
        }
    }

    /// A 30 mm circle with ±0.5 mm of deterministic jitter (a linear congruential sequence).
    static func noisyCircle(count: Int) -> [Point] {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func jitter() -> Double {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(seed >> 11) / Double(1 << 53) - 0.5
        }
        return (0..<count).map { i in
            let a = Double(i) / Double(count) * 2 * Double.pi
            return Point(x: 100 + 30 * Angle.cos(a) + jitter(), y: 80 + 30 * Angle.sin(a) + jitter())
        }
    }
}
