import Evdev
import GestureKit

/// The path of one contact during a stroke, in millimetres.
public struct ContactPath: Sendable {
    public var id: Int32
    public var points: [Point]
    /// Ended by a cancellation (palm, resync) rather than a lift.
    public var cancelled: Bool
}

/// What happened during one stroke (first touch down to all fingers up): the paths, and what
/// each shape recognizer measured, copied out of the recognizers before they were reset.
public struct StrokeTrace: Sendable {
    public var index: Int
    public var startTime: Double
    public var endTime: Double
    public var paths: [ContactPath] = []
    /// Most fingers down at once.
    public var maxFingers = 0
    public var circle: CircleAnalysis?
    public var circleState = RecognizerState.possible
    /// The evenly spaced points the circle rules measured (the recognizer's resampling).
    public var circlePoints: [Point] = []
    public var checkmark: CheckmarkAnalysis?
    public var checkmarkState = RecognizerState.possible
    public var tickle = TickleAnalysis()
    public var tickleState = RecognizerState.possible
    public var events: [GestureEvent] = []

    /// The box around every path, mm.
    public var box: Rect {
        var r = Rect.empty
        for path in paths { for p in path.points { r.include(p) } }
        return r
    }
}

/// A recording, cut into strokes and traced.
public struct RecordingTrace: Sendable {
    public var path: String
    public var deviceName: String
    public var surface: Surface
    /// Time of the recording's first event: the legend gives stroke times from it.
    public var startTime: Double
    public var circleRules: CircleRules
    public var checkmarkRules: CheckmarkRules
    public var tickleRules: TickleRules
    public var strokes: [StrokeTrace]
}

/// Runs a recording through the contact tracker into the shape recognizers — the same objects,
/// rules and code the daemon uses, each on its own as if it were alone in the arena — and keeps
/// what they measured on every stroke. Nothing is re-derived here: the trace shows the
/// recognizers' own analyses.
public enum StrokeTracer {
    public static func trace(_ recording: Recording, transform: CoordinateTransform = .identity,
                             circle: CircleRules = CircleRules(), checkmark: CheckmarkRules = CheckmarkRules(),
                             tickle: TickleRules = TickleRules()) -> RecordingTrace {
        var tracker = ContactTracker(info: recording.info, transform: transform)
        let circleRecognizer = CircleRecognizer(rules: circle)
        let checkmarkRecognizer = CheckmarkRecognizer(rules: checkmark)
        let tickleRecognizer = TickleRecognizer(rules: tickle)
        let recognizers: [any GestureRecognizer] = [circleRecognizer, checkmarkRecognizer, tickleRecognizer]
        var strokes: [StrokeTrace] = []
        var current: StrokeTrace?
        var events: [GestureEvent] = []

        for e in recording.events {
            // Timeouts fire at their time, between events, as the daemon's timer would.
            for r in recognizers { r.fireDeadlines(until: e.time, events: &events) }
            tracker.feed(e) { frame in
                guard !frame.contacts.isEmpty else { return }
                var stroke = current ?? StrokeTrace(index: strokes.count + 1, startTime: frame.time, endTime: frame.time)
                stroke.endTime = frame.time
                stroke.maxFingers = max(stroke.maxFingers, frame.downCount)
                for c in frame.contacts {
                    if let k = stroke.paths.firstIndex(where: { $0.id == c.id }) {
                        if stroke.paths[k].points.last != c.mm { stroke.paths[k].points.append(c.mm) }
                        if c.phase == .cancelled { stroke.paths[k].cancelled = true }
                    } else {
                        stroke.paths.append(ContactPath(id: c.id, points: [c.mm], cancelled: c.phase == .cancelled))
                    }
                }
                for r in recognizers { r.handle(frame, events: &events) }
                guard frame.downCount == 0 else {
                    current = stroke
                    return
                }
                // All fingers up: copy what the recognizers saw, then reset them for the next stroke.
                stroke.circle = circleRecognizer.analysis
                stroke.circleState = circleRecognizer.state
                stroke.circlePoints = circleRecognizer.resampled
                stroke.checkmark = checkmarkRecognizer.analysis
                stroke.checkmarkState = checkmarkRecognizer.state
                stroke.tickle = tickleRecognizer.analysis
                stroke.tickleState = tickleRecognizer.state
                stroke.events = events
                events.removeAll()
                strokes.append(stroke)
                current = nil
                for r in recognizers { r.reset() }
            }
        }
        // A recording that stops with a finger still down: show that stroke as it was.
        if var stroke = current {
            stroke.circleState = circleRecognizer.state
            stroke.checkmarkState = checkmarkRecognizer.state
            stroke.tickle = tickleRecognizer.analysis
            stroke.tickleState = tickleRecognizer.state
            stroke.events = events
            strokes.append(stroke)
        }
        return RecordingTrace(path: recording.path, deviceName: recording.info.name, surface: tracker.surface,
                              startTime: recording.events.first?.time ?? 0, circleRules: circle, checkmarkRules: checkmark, tickleRules: tickle, strokes: strokes)
    }
}
