import Evdev
import GestureKit
import Logging

/// A live evdev device: read when its fd is readable, in batches so one busy device cannot
/// starve the others. SYN_DROPPED resyncs it (in-flight gestures cancelled); an unplug
/// cancels its gestures and nothing else. With `passthrough`, the app reads its clone
/// (Passthrough), made when the config asks for it and removed when a reload turns it off.
final class LiveDeviceSource: DeviceSource {
    let device: EvdevDevice
    private(set) var pipeline: DevicePipeline
    private(set) var passthrough: Passthrough?
    var disabled: Set<String> = []
    private let log: Logger

    init(device: EvdevDevice, config: DaemonConfig, log: Logger) {
        self.device = device
        self.log = log
        pipeline = PipelineFactory.make(info: device.info, config: config, disabled: [], initialSlots: device.slotSnapshot(), log: log)
        configurePassthrough(config)
    }

    enum ReadResult { case open, gone }

    /// Reads until the kernel's queue is empty. The clock is read only when a device is lost:
    /// events carry their own kernel time, and a wakeup should cost no system call but the read.
    func readable(emit: (GestureEvent) -> Void) -> ReadResult {
        let pipeline = self.pipeline
        while true {
            let outcome: ReadOutcome
            if let p = passthrough {
                outcome = device.read { if let e = p.feed($0, pipeline: pipeline, onGesture: emit) { self.writeFailed(e) } }
            } else {
                outcome = device.read { pipeline.feed($0, onGesture: emit) }
            }
            switch outcome {
            case .more:
                continue
            case .wouldBlock:
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

    /// Recognizer timeouts: kernel times are CLOCK_MONOTONIC, the timer's clock.
    var wakeTime: Double? { pipeline.deadline }

    func wake(now: Double, emit: (GestureEvent) -> Void) {
        pipeline.tick(now: now, onGesture: emit)
        if let e = passthrough?.settle(pipeline: pipeline) { writeFailed(e) }
    }

    func rebuild(config: DaemonConfig, now: Double, emit: (GestureEvent) -> Void) {
        cancel(now: now, emit: emit)
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
