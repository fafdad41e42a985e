import Evdev
import GestureKit
import Logging

/// A live evdev device: read when its fd is readable, in batches so one busy device cannot
/// starve the others. SYN_DROPPED resyncs it (in-flight gestures cancelled); an unplug
/// cancels its gestures and nothing else. With `passthrough`, the app reads its clone
/// (Passthrough), made when the config asks for it and removed when a reload turns it off.
///
/// Coalescing (`read_interval_ms`, off by default): the daemon wakes once per frame a device
/// sends, and each wakeup costs kernel time (epoll, the read, the scheduler) whatever the frame
/// holds. With an interval, once a read leaves fingers down the device's fd leaves epoll and is
/// read again by the timer, `interval` after that read: every frame that arrived
/// meanwhile comes in that one read, each with its own kernel time, so recognizers see the same
/// frames, later. A read that finds nothing (the fingers rest) or leaves no finger down puts the
/// fd back in epoll, so resting and idle cost no wakeup. The price is up to `interval` of latency
/// on every gesture and on what passthrough forwards to the app.
final class LiveDeviceSource: DeviceSource {
    let device: EvdevDevice
    private(set) var pipeline: DevicePipeline
    private(set) var passthrough: Passthrough?
    var disabled: Set<String> = []
    var touchDown: () -> Bool = { false }
    private let log: Logger
    /// Seconds; 0: the device is read whenever it is readable.
    private var readInterval: Double
    /// While coalescing: when the timer reads the device next (its fd is out of epoll until then).
    private var resumeAt: Double?
    /// Puts the device's fd in epoll's interest set or takes it out (set by the service).
    var watch: (_ readable: Bool) -> Void = { _ in }

    init(device: EvdevDevice, config: DaemonConfig, log: Logger) {
        self.device = device
        self.log = log
        readInterval = Self.readInterval(device.info, config)
        pipeline = PipelineFactory.make(info: device.info, config: config, disabled: [], initialSlots: device.slotSnapshot(), log: log)
        configurePassthrough(config)
    }

    private static func readInterval(_ info: DeviceInfo, _ config: DaemonConfig) -> Double {
        (config.settings(for: info.identity).settings.readIntervalMS ?? 0) / 1000
    }

    /// Reads until the kernel's queue is empty. The clock is read only when a device is lost:
    /// events carry their own kernel time, and a wakeup should cost no system call but the read.
    /// `now`: the clock, when the caller has read it (the timer's coalesced read); coalescing
    /// counts the interval from it, else from the last event read (the wakeup it caused).
    func readable(now: Double? = nil, emit: (GestureEvent) -> Void) -> SourceStatus {
        let pipeline = self.pipeline
        let touchDown = self.touchDown
        var lastEvent: Double?
        while true {
            let outcome: ReadOutcome
            if let p = passthrough {
                outcome = device.read {
                    lastEvent = $0.time
                    if let e = p.feed($0, pipeline: pipeline, touchDown: touchDown, onGesture: emit) { self.writeFailed(e) }
                }
            } else {
                outcome = device.read {
                    lastEvent = $0.time
                    pipeline.feed($0, onFrame: { f in if f.startsSequence { _ = touchDown() } }, onGesture: emit)
                }
            }
            switch outcome {
            case .more:
                continue
            case .wouldBlock:
                coalesce(after: lastEvent.map { now ?? $0 })
                return .open
            case .dropped(let time):
                log.warning("\(device.info.name): events dropped by the kernel (SYN_DROPPED), resynchronized; gestures in flight cancelled")
                if let p = passthrough {
                    if let e = p.dropped(time: time, slots: device.slotSnapshot(), pipeline: pipeline, onGesture: emit) { writeFailed(e) }
                } else {
                    pipeline.dropped(time: time, slots: device.slotSnapshot(), onGesture: emit)
                }
            case .unplugged:
                log.info("\(device.info.name) (\(device.devnode)) unplugged")
                pipeline.deviceLost(time: MonotonicClock.now(), onGesture: emit)
                return .gone
            case .failed(let e):
                log.error("\(device.info.name) (\(device.devnode)): read failed (errno \(e)), closing it")
                pipeline.deviceLost(time: MonotonicClock.now(), onGesture: emit)
                return .gone
            }
        }
    }

    /// Leaves the fd out of epoll until `interval` after `read` (when events came and fingers are
    /// still down); otherwise puts it back.
    private func coalesce(after read: Double?) {
        guard readInterval > 0 else { return }
        if let t = read, pipeline.tracker.downCount > 0 {
            if resumeAt == nil { watch(false) }
            resumeAt = t + readInterval
        } else if resumeAt != nil {
            resumeAt = nil
            watch(true)
        }
    }

    /// Recognizer timeouts and the coalesced read: kernel times are CLOCK_MONOTONIC, the timer's clock.
    var wakeTime: Double? {
        guard let r = resumeAt else { return pipeline.deadline }
        return min(r, pipeline.deadline ?? r)
    }

    func wake(now: Double, emit: (GestureEvent) -> Void) -> SourceStatus {
        if let r = resumeAt, r <= now, readable(now: now, emit: emit) == .gone { return .gone }
        pipeline.tick(now: now, onGesture: emit)
        if let e = passthrough?.settle(pipeline: pipeline) { writeFailed(e) }
        return .open
    }

    func rebuild(config: DaemonConfig, now: Double, emit: (GestureEvent) -> Void) {
        cancel(now: now, emit: emit)
        readInterval = Self.readInterval(device.info, config)
        if resumeAt != nil {
            resumeAt = nil
            watch(true)
        }
        pipeline = PipelineFactory.make(info: device.info, config: config, disabled: disabled, initialSlots: device.slotSnapshot(), log: log)
        configurePassthrough(config)
    }

    func cancel(now: Double, emit: (GestureEvent) -> Void) {
        pipeline.deviceLost(time: now, onGesture: emit)
        passthrough?.cancelForApp()
    }

    /// The device is closed (unplug, shutdown): its clone goes with it.
    func close() {
        passthrough?.end()
        passthrough = nil
    }

    /// Makes, keeps (with new rules) or removes the clone as the config says; the device stays
    /// open throughout, grabbed while it is passed through or `grab` asks for it.
    private func configurePassthrough(_ config: DaemonConfig) {
        let name = device.info.name
        guard let rules = PipelineFactory.passthroughRules(device.info, config: config) else {
            if let p = passthrough {
                p.end()
                passthrough = nil
                log.info("\(name): passthrough off, clone \(p.clone.devnode) removed")
            }
            setGrab(PipelineFactory.wantsGrab(device.info, config: config))
            return
        }
        if let p = passthrough {
            p.restart(rules: rules)
            return
        }
        guard device.info.touchProtocol == .multitouchB else {
            log.error("\(name): passthrough needs a multitouch device with slots (protocol B); not passed through")
            setGrab(config.settings(for: device.info.identity).settings.grab ?? false)
            return
        }
        do {
            try device.setGrabbed(true)
            let clone = try TouchClone(of: device)
            passthrough = Passthrough(clone: clone, rules: rules)
            log.info("\(name): passed through to \(clone.devnode) (\(clone.name))")
        } catch {
            log.error("\(name): passthrough failed, the app keeps the device: \(error)")
            setGrab(config.settings(for: device.info.identity).settings.grab ?? false)
        }
    }

    private func setGrab(_ on: Bool) {
        do { try device.setGrabbed(on) } catch { log.error("\(device.info.name): \(error)") }
    }

    private func writeFailed(_ e: DeviceError) {
        log.error("\(device.info.name): cannot write to its clone: \(e)")
    }
}
