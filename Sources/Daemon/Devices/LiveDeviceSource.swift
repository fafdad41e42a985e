import Evdev
import GestureKit
import Logging

/// A live evdev device: read when its fd is readable, in batches so one busy device cannot
/// starve the others. SYN_DROPPED resyncs it (in-flight gestures cancelled); an unplug
/// cancels its gestures and nothing else.
final class LiveDeviceSource: DeviceSource {
    let device: EvdevDevice
    private(set) var pipeline: DevicePipeline
    var disabled: Set<String> = []
    private let log: Logger

    init(device: EvdevDevice, config: DaemonConfig, log: Logger) {
        self.device = device
        self.log = log
        pipeline = PipelineFactory.make(info: device.info, config: config, disabled: [], initialSlots: device.slotSnapshot(), log: log)
    }

    enum ReadResult { case open, gone }

    /// Reads until the kernel's queue is empty. The clock is read only when a device is lost:
    /// events carry their own kernel time, and a wakeup should cost no system call but the read.
    func readable(emit: (GestureEvent) -> Void) -> ReadResult {
        let pipeline = self.pipeline
        while true {
            switch device.read(into: { pipeline.feed($0, onGesture: emit) }) {
            case .more:
                continue
            case .wouldBlock:
                return .open
            case .dropped(let time):
                log.warning("\(device.info.name): events dropped by the kernel (SYN_DROPPED), resynchronized; gestures in flight cancelled")
                pipeline.dropped(time: time, slots: device.slotSnapshot(), onGesture: emit)
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

    func wake(now: Double, emit: (GestureEvent) -> Void) { pipeline.tick(now: now, onGesture: emit) }

    func rebuild(config: DaemonConfig, now: Double, emit: (GestureEvent) -> Void) {
        cancel(now: now, emit: emit)
        pipeline = PipelineFactory.make(info: device.info, config: config, disabled: disabled, initialSlots: device.slotSnapshot(), log: log)
    }

    func cancel(now: Double, emit: (GestureEvent) -> Void) { pipeline.deviceLost(time: now, onGesture: emit) }
}
