/// Latencies in microseconds, counted in log-spaced buckets of fixed storage: recording one is
/// a bucket index and a few increments and never allocates, so the daemon can record every
/// frame it forwards.
///
/// Buckets: one per microsecond below 8 µs, then 8 per power of two up to `limitMicroseconds`
/// (2^24 µs, 16.8 s): a bucket spans at most 1/8 of its lower bound, so a percentile read from
/// it (its largest value, capped at the largest recorded) is at most 12.5 % (and 1 µs) above the
/// exact nearest-rank percentile, never below it. Negative latencies (a clock step) count as 0;
/// those at or over the limit count in the last bucket and in `over`.
public struct LatencyHistogram: Sendable {
    /// Sub-buckets per power of two: 2^subBits.
    static let subBits = 3
    static let sub = 1 << subBits
    /// The largest latency told apart, exclusive (2^24 µs).
    public static let limitMicroseconds = 1 << 24
    /// Buckets: `sub` exact ones below `sub`, then `sub` per power of two from 2^subBits to 2^24.
    public static let bucketCount = 176

    #if compiler(>=6.2)
    private var buckets = InlineArray<176, UInt32>(repeating: 0)
    #else
    // Debian 13's Swift 6.0 has no InlineArray (6.2): an array allocated once, at init; a
    // histogram is written only where it is stored (unique), so recording still never allocates.
    private var buckets = [UInt32](repeating: 0, count: 176)
    #endif
    /// Latencies recorded (saturating at UInt32.max per bucket: 4 billion frames).
    public private(set) var count = 0
    /// The largest recorded, in microseconds (capped at the limit).
    public private(set) var maxMicroseconds = 0
    /// How many reached the limit.
    public private(set) var over = 0

    public init() {}

    /// Records one latency in seconds.
    @inline(__always)
    public mutating func record(seconds: Double) {
        // Seconds → µs; NaN and negatives → 0, huge → the limit (Int(...) traps beyond Int's range).
        let us = seconds > 0 ? Int(min(seconds * 1e6, Double(Self.limitMicroseconds))) : 0
        record(microseconds: us)
    }

    @inline(__always)
    public mutating func record(microseconds: Int) {
        var v = max(microseconds, 0)
        if v >= Self.limitMicroseconds {
            v = Self.limitMicroseconds - 1
            over += 1
        }
        let i = Self.bucket(of: v)
        if buckets[i] < UInt32.max { buckets[i] += 1 }
        count += 1
        if v > maxMicroseconds { maxMicroseconds = v }
    }

    /// The bucket of `v` (0 ≤ v < limit).
    @inline(__always)
    static func bucket(of v: Int) -> Int {
        guard v >= sub else { return v }
        let e = Int.bitWidth - 1 - v.leadingZeroBitCount  // floor(log2 v) ≥ subBits
        return sub * (e - subBits + 1) + (v >> (e - subBits)) - sub
    }

    /// The largest value of bucket `i`.
    static func upperBound(of i: Int) -> Int {
        guard i >= sub else { return i }
        let e = i / sub + subBits - 1, m = i % sub
        return ((sub + m + 1) << (e - subBits)) - 1
    }

    /// The nearest-rank percentile `p` (0 < p ≤ 1) in microseconds: the smallest recorded value
    /// that at least `p` of all are at or below, as its bucket knows it; nil when none recorded.
    public func percentile(_ p: Double) -> Int? {
        guard count > 0 else { return nil }
        let rank = max(1, Int((p * Double(count)).rounded(.up)))
        var seen = 0
        for i in 0..<Self.bucketCount {
            seen += Int(buckets[i])
            if seen >= rank { return min(Self.upperBound(of: i), maxMicroseconds) }
        }
        return maxMicroseconds
    }

    /// Forgets everything recorded.
    public mutating func reset() { self = LatencyHistogram() }
}
