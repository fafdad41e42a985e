import Evdev
import GestureKit
import Logging

/// A recording used as a device (`--replay`): its events are fed at the pace of their
/// timestamps (the timer wakes the loop for the next one), or all at once with `--fast`.
/// Either way they go through the same pipeline as a live device's.
final class RecordingSource: DeviceSource {
    let recording: Recording
    private(set) var pipeline: DevicePipeline
    var disabled: Set<String> = []
    var touchDown: () -> Bool = { false }
    private let fast: Bool
    private let log: Logger
    private var next = 0
    /// Monotonic time minus recording time, fixed when the replay starts.
    private var offset = 0.0
    private(set) var isPlaying = false

    init(recording: Recording, config: DaemonConfig, fast: Bool, log: Logger) {
        self.recording = recording
        self.fast = fast
        self.log = log
        pipeline = PipelineFactory.make(info: recording.info, config: config, disabled: [], log: log)
    }

    /// (Re)starts from the first event.
    func start(now: Double) {
        next = 0
        offset = now - (recording.events.first?.time ?? 0)
        isPlaying = true
    }

    var wakeTime: Double? {
        guard isPlaying else { return nil }
        if fast { return 0 }
        var t = pipeline.deadline
        if next < recording.events.count {
            let e = recording.events[next].time
            t = min(t ?? e, e)
        }
        return t.map { $0 + offset }
    }

    func wake(now: Double, emit: (GestureEvent) -> Void) -> SourceStatus {
        guard isPlaying else { return .open }
        let events = recording.events
        if fast {
            while next < events.count {
                // Timeouts between events fire in recording time, as they would have live.
                let t = events[next].time
                pipeline.fireDeadlines(until: t, onGesture: emit)
                feed(events[next], emit: emit)
                next += 1
            }
            pipeline.fireDeadlines(until: .infinity, onGesture: emit)
        } else {
            let recNow = now - offset
            while next < events.count, events[next].time <= recNow {
                feed(events[next], emit: emit)
                next += 1
            }
            if let d = pipeline.deadline, d <= recNow { pipeline.tick(now: recNow, onGesture: emit) }
        }
        if next >= events.count && pipeline.deadline == nil {
            isPlaying = false
            log.info("replay of \(recording.path) finished (\(events.count) events)")
        }
        return .open
    }

    /// A recording has no app to keep touches from; the first touch still counts (idle, wake).
    private func feed(_ e: InputEvent, emit: (GestureEvent) -> Void) {
        pipeline.feed(e, onFrame: { f in if f.startsSequence { _ = touchDown() } }, onGesture: emit)
    }

    func rebuild(config: DaemonConfig, now: Double, emit: (GestureEvent) -> Void) {
        cancel(now: now, emit: emit)
        pipeline = PipelineFactory.make(info: recording.info, config: config, disabled: disabled, log: log)
    }

    func cancel(now: Double, emit: (GestureEvent) -> Void) {
        pipeline.deviceLost(time: isPlaying ? now - offset : (recording.events.last?.time ?? 0), onGesture: emit)
    }
}
