import Evdev
import GestureKit
import Logging

/// Reads a live device for its session: until the kernel's queue is empty, in batches so one
/// busy device cannot starve the others, each batch fed to the pipeline (whose stage, with
/// passthrough, is the clone). SYN_DROPPED resyncs it (DevicePipeline.dropped); an unplug or a
/// failed read cancels its gestures, and the session is closed.
///
/// Coalescing (`read_interval_ms`, off by default): the daemon wakes once per frame a device
/// sends, and each wakeup costs kernel time (epoll, the read, the scheduler) whatever the frame
/// holds. With an interval, once a read leaves fingers down the device's fd leaves epoll and is
/// read again by the timer, `interval` after that read: every frame that arrived meanwhile comes
/// in that one read, each with its own kernel time, so recognizers see the same frames, later. A
/// read that finds nothing (the fingers rest) or leaves no finger down puts the fd back in epoll,
/// so resting and idle cost no wakeup. The price is up to `interval` of latency on every gesture
/// and on what passthrough forwards to the app.
struct DeviceReader {
    /// The session's device (DeviceInput holds it for the session's life).
    private let device: Borrowed<EvdevDevice>
    private let fd: Int32
    private let name: String
    private let log: Logger
    /// Seconds; 0: the device is read whenever it is readable.
    private var interval: Double
    /// While coalescing: when the timer reads the device next (its fd is out of epoll until then).
    private(set) var resumeAt: Double?
    /// The loop the fd is in, once attached.
    private var loop: EventLoop?

    /// Nil for a recording (the timer plays it).
    init?(_ input: DeviceInput, interval: Double, log: Logger) {
        guard let device = input.device, let borrowed = input.liveDevice else { return nil }
        self.device = borrowed
        fd = device.fd
        name = device.info.name
        self.log = log
        self.interval = interval
    }

    /// The fd joins the loop; `wakeup` is its handler until `detach`.
    mutating func attach(to loop: EventLoop, wakeup: SessionWakeup) throws {
        try loop.add(fd) { _ in wakeup.fire() }
        self.loop = loop
    }

    mutating func detach() {
        loop?.remove(fd)
        loop = nil
    }

    /// A new config's interval; a coalesced wait ends (the fd goes back into epoll).
    mutating func setInterval(_ seconds: Double) {
        interval = seconds
        if resumeAt != nil {
            resumeAt = nil
            watch(true)
        }
    }

    /// Reads until the kernel's queue is empty (`.open`) or the device is gone (`.gone`, its
    /// gestures cancelled). The clock is read only when a device is lost: events carry their own
    /// kernel time, and a wakeup should cost no system call but the read. `now`: the clock, when
    /// the caller has read it (the timer's coalesced read); coalescing counts the interval from
    /// it, else from the last event read (the wakeup it caused).
    /// `clone`: the session's passthrough (the pipeline's stage), lent unretained (the session
    /// keeps it for the whole call: only a reload or `close` replaces it, never during a read),
    /// whose write errors are logged here.
    @inline(__always)
    mutating func read(into pipeline: DevicePipeline, clone: Borrowed<Passthrough>?, now: Double?,
                       out: inout [GestureEvent]) -> SourceStatus {
        // Unretained: the session owns its device (DeviceInput) and, for the whole call, its
        // pipeline (only a reload replaces it, never while a read is fed).
        device.with { device in
            var lastEvent: Double?
            while true {
                let (events, outcome) = device.read()
                if !events.isEmpty {
                    if interval > 0 { lastEvent = events[events.count - 1].time }
                    pipeline.feed(events) { out.append($0) }
                }
                switch outcome {
                case .more:
                    continue
                case .wouldBlock:
                    if let clone { writeFailed(clone) }
                    if interval > 0 { coalesce(after: lastEvent.map { now ?? $0 }, fingersDown: pipeline.tracker.downCount > 0) }
                    return .open
                case .dropped, .unplugged, .failed:
                    if let clone { writeFailed(clone) }
                    if let status = interrupted(outcome, device: device, pipeline: pipeline, into: &out) {
                        return status
                    }
                }
            }
        }
    }

    /// A read that did not end by draining the queue: SYN_DROPPED (resynchronized; nil, reading
    /// goes on) or the device gone. Out of line: its logging would cost every wakeup a larger frame.
    @inline(never)
    private func interrupted(_ outcome: ReadOutcome, device: EvdevDevice, pipeline: DevicePipeline,
                             into out: inout [GestureEvent]) -> SourceStatus? {
        switch outcome {
        case .dropped(let time):
            log.warning("\(name): events dropped by the kernel (SYN_DROPPED), resynchronized; gestures in flight cancelled")
            // A write error of the resync is logged when the read ends (`read`), as any other.
            pipeline.dropped(time: time, slots: device.slotSnapshot()) { out.append($0) }
            return nil
        case .unplugged:
            log.info("\(name) (\(device.devnode)) unplugged")
        case .failed(let e):
            log.error("\(name) (\(device.devnode)): read failed (errno \(e)), closing it")
        case .more, .wouldBlock:
            return nil
        }
        pipeline.deviceLost(time: MonotonicClock.now()) { out.append($0) }
        return .gone
    }

    /// Logs the clone's write error met in the feeds, the first time writes failed. Out of line:
    /// inlined, its logging made every wakeup's read set up a larger frame (speed:
    /// docs/architecture.md).
    @inline(never)
    private func writeFailed(_ clone: Borrowed<Passthrough>) {
        if let error = clone.with({ $0.takeFailure() }) { Self.writeFailed(error, name: name, log: log) }
    }

    /// Leaves the fd out of epoll until `interval` after `read` (when events came and fingers are
    /// still down); otherwise puts it back. Only with an interval.
    private mutating func coalesce(after read: Double?, fingersDown: Bool) {
        if let t = read, fingersDown {
            if resumeAt == nil { watch(false) }
            resumeAt = t + interval
        } else if resumeAt != nil {
            resumeAt = nil
            watch(true)
        }
    }

    private func watch(_ readable: Bool) {
        loop?.modify(fd, events: readable ? EventLoop.readable : 0)
    }

    static func writeFailed(_ e: DeviceError, name: String, log: Logger) {
        log.error("\(name): cannot write to its clone: \(e)")
    }
}
