import Glibc

/// Monotonic nanoseconds, for measuring benchmark passes.
enum Stopwatch {
    static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }
}

/// Order statistics over a sample of measurements.
struct Distribution {
    private(set) var sorted: [Double]

    init(_ values: [Double]) { sorted = values.sorted() }

    func quantile(_ q: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        let i = min(sorted.count - 1, max(0, Int((q * Double(sorted.count - 1)).rounded())))
        return sorted[i]
    }

    var median: Double { quantile(0.5) }
    var p99: Double { quantile(0.99) }
}

extension Stopwatch {
    /// CPU nanoseconds of the calling thread: on a shared, loaded machine a cost measured in CPU
    /// time does not grow with the other processes' load the way elapsed time does.
    static func threadCPU() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }
}
