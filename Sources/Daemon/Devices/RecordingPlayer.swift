import Evdev
import GestureKit
import Logging

/// A recording played as a device (`--replay`): its events are fed at the pace of their
/// timestamps (the timer wakes the loop for the next one), or all at once with `--fast`.
/// Either way they go through the same pipeline as a live device's (DeviceSession).
final class RecordingPlayer {
    let recording: Recording
    private let fast: Bool
    private var next = 0
    /// Monotonic time minus recording time, fixed when the replay starts.
    private var offset = 0.0
    private(set) var isPlaying = false

    init(recording: Recording, fast: Bool) {
        self.recording = recording
        self.fast = fast
    }

    /// (Re)starts from the first event.
    func start(now: Double) {
        next = 0
        offset = now - (recording.events.first?.time ?? 0)
        isPlaying = true
    }

    /// `now` on the recording's clock; after the replay, its last event's time.
    func recordingTime(now: Double) -> Double {
        isPlaying ? now - offset : (recording.events.last?.time ?? 0)
    }

    func wakeTime(deadline: Double?) -> Double? {
        guard isPlaying else { return nil }
        if fast { return 0 }
        var t = deadline
        if next < recording.events.count {
            let e = recording.events[next].time
            t = min(t ?? e, e)
        }
        return t.map { $0 + offset }
    }

    func wake(now: Double, pipeline: DevicePipeline, into out: inout [GestureEvent], log: Logger) {
        guard isPlaying else { return }
        let events = recording.events
        if fast {
            // Timeouts between frames fire in recording time, as they would have live.
            pipeline.play(events[next...]) { out.append($0) }
            next = events.count
            pipeline.fireDeadlines(until: .infinity) { out.append($0) }
        } else {
            // The events due, fed at once as a device's read.
            let recNow = now - offset
            let start = next
            while next < events.count, events[next].time <= recNow { next += 1 }
            if next > start { pipeline.feed(events[start..<next]) { out.append($0) } }
            if let d = pipeline.deadline, d <= recNow { pipeline.tick(now: recNow) { out.append($0) } }
        }
        if next >= events.count && pipeline.deadline == nil {
            isPlaying = false
            log.info("replay of \(recording.path) finished (\(events.count) events)")
        }
    }
}
