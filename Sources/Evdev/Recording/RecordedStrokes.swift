import GestureKit

/// The touches of a recording, through the contact tracker the daemon uses, cut into
/// one-finger strokes (StrokeCollector): what `gestured learn` teaches from.
public enum RecordedStrokes {
    public struct Touch: Sendable {
        /// Seconds from the recording's first event to the touch's end.
        public var time: Double
        public var verdict: StrokeCollector.Verdict
    }

    public static func touches(_ recording: Recording, minSizeMM: Double, transform: CoordinateTransform = .identity) -> [Touch] {
        var tracker = ContactTracker(info: recording.info, transform: transform)
        let collector = StrokeCollector(minSizeMM: minSizeMM)
        let start = recording.events.first?.time ?? 0
        var out: [Touch] = []
        for e in recording.events {
            tracker.feed(e) { frame in
                if let v = collector.handle(frame) { out.append(Touch(time: frame.time - start, verdict: v)) }
            }
        }
        return out
    }
}
