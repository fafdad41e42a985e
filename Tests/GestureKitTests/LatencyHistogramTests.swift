import Testing
@testable import GestureKit

/// The daemon's latency recorder against the plain version: every latency kept in an array,
/// sorted, the nearest-rank percentile read from it.
@Suite struct LatencyHistogramTests {
    /// The nearest-rank percentile of `values`.
    static func exact(_ values: [Int], _ p: Double) -> Int {
        let sorted = values.sorted()
        return sorted[max(1, Int((p * Double(sorted.count)).rounded(.up))) - 1]
    }

    /// A latency spread as the daemon's are: mostly around a millisecond, a tail to a second.
    static func latencies(count: Int, seed: UInt64) -> [Int] {
        var state = seed
        func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 33
        }
        return (0..<count).map { _ in
            let r = next() % 1000
            if r < 900 { return 200 + Int(next() % 1500) }     // 0.2–1.7 ms
            if r < 990 { return 1700 + Int(next() % 20_000) }  // the tail
            return Int(next() % 1_000_000)                     // up to a second, some under 8 µs
        }
    }

    @Test(arguments: [1, 7, 100, 300, 10_000] as [Int])
    func percentilesAreTheSortedArraysWithinABucket(count: Int) {
        for seed: UInt64 in [1, 2, 3] {
            let values = Self.latencies(count: count, seed: seed)
            var h = LatencyHistogram()
            for v in values { h.record(microseconds: v) }
            #expect(h.count == count)
            #expect(h.maxMicroseconds == values.max())
            for p in [0.01, 0.5, 0.9, 0.99, 1.0] {
                let want = Self.exact(values, p)
                let got = h.percentile(p)!
                // Never below the exact value; above it by at most the bucket's width (1/8).
                #expect(got >= want && got <= want + want / 8, "p\(p) of \(count) (seed \(seed)): \(got) µs, exact \(want) µs")
            }
        }
    }

    @Test func smallLatenciesAreExact() {
        var h = LatencyHistogram()
        for v in [0, 1, 2, 3, 4, 5, 6, 7] { h.record(microseconds: v) }
        #expect(h.percentile(0.5) == 3 && h.percentile(1) == 7 && h.percentile(0.01) == 0)
    }

    /// Each bucket's values are those between the previous bucket's largest and its own: no gap,
    /// no overlap, up to the limit.
    @Test func bucketsTileTheRange() {
        var last = -1
        for i in 0..<LatencyHistogram.bucketCount {
            let top = LatencyHistogram.upperBound(of: i)
            #expect(LatencyHistogram.bucket(of: last + 1) == i && LatencyHistogram.bucket(of: top) == i, "bucket \(i)")
            #expect(top - last <= max(1, (last + 1) / 8 + 1), "bucket \(i) is \(top - last) µs wide from \(last + 1) µs")
            last = top
        }
        #expect(last == LatencyHistogram.limitMicroseconds - 1)
    }

    @Test func limitsAreExplicit() {
        var h = LatencyHistogram()
        #expect(h.percentile(0.5) == nil)
        h.record(seconds: -0.002)      // a clock step: counts as 0
        h.record(seconds: .nan)
        h.record(seconds: 1e9)         // beyond the limit: counted there, and as over
        h.record(microseconds: Int.max)
        #expect(h.count == 4 && h.over == 2)
        #expect(h.percentile(0.5) == 0)
        #expect(h.percentile(1) == LatencyHistogram.limitMicroseconds - 1)
        h.record(seconds: 0.0015)
        #expect(h.maxMicroseconds == LatencyHistogram.limitMicroseconds - 1)
        h.reset()
        #expect(h.count == 0 && h.percentile(0.99) == nil)
    }
}
