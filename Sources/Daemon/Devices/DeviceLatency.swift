import GestureKit

/// How late a device's input comes out of gestured, measured by the daemon itself: from the
/// kernel's timestamp of a frame (its SYN_REPORT, CLOCK_MONOTONIC: EvdevDevice sets the clock)
/// to each place it ends up, one histogram per path, since the device was opened. A gesture's
/// time is its frame's (or, for one a timeout ended, the deadline's). In `status` and `doctor`.
struct DeviceLatency {
    enum Path: String, CaseIterable {
        /// The frame written to the passthrough clone (the write(2) returned; Passthrough's).
        case clone
        /// A gesture handed to every sink: queued for the socket clients (written in the same
        /// wakeup), the bindings and the fleet.
        case delivered
        /// A bound key chord or click written to the virtual keyboard or pointer.
        case keys
        /// A bound command started: the spawner's posix_spawn returned.
        case command
    }

    var clone = LatencyHistogram()
    private var delivered = LatencyHistogram(), keys = LatencyHistogram(), command = LatencyHistogram()

    subscript(path: Path) -> LatencyHistogram {
        switch path {
        case .clone: clone
        case .delivered: delivered
        case .keys: keys
        case .command: command
        }
    }

    @inline(__always)
    mutating func record(_ path: Path, seconds: Double) {
        switch path {
        case .clone: clone.record(seconds: seconds)
        case .delivered: delivered.record(seconds: seconds)
        case .keys: keys.record(seconds: seconds)
        case .command: command.record(seconds: seconds)
        }
    }

    /// `{"clone":{"count":…,"p50_ms":…,"p99_ms":…,"max_ms":…},…}`: every path, its figures once it
    /// has some.
    func write(_ w: inout JSONWriter) {
        for path in Path.allCases {
            let h = self[path]
            w.object(path.rawValue) { w in
                w.key("count"); w.int(h.count)
                guard let p50 = h.percentile(0.5), let p99 = h.percentile(0.99) else { return }
                w.key("p50_ms"); w.number(Double(p50) / 1000, decimals: 3)
                w.key("p99_ms"); w.number(Double(p99) / 1000, decimals: 3)
                w.key("max_ms"); w.number(Double(h.maxMicroseconds) / 1000, decimals: 3)
            }
        }
    }
}
