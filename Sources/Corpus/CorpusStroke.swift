import GestureKit

/// One stroke of the unistroke corpus: who drew it, which shape, how fast, and the frames the
/// real contact tracker made of it from touch-down to lift — what a recognizer sees live.
public struct CorpusStroke: Sendable {
    /// "s01" … "s05".
    public var subject: String
    /// One of `UnistrokeCorpus.shapes`, e.g. "check".
    public var shape: String
    /// "fast", "medium" or "slow" ("" when the windows file does not say).
    public var speed: String
    /// The stroke's name in its windows file, e.g. "check07".
    public var name: String
    /// Every frame of the touch, copied out of the tracker (the last one has the contact ended).
    public var frames: [TouchFrame]

    public init(subject: String, shape: String, speed: String, name: String, frames: [TouchFrame]) {
        self.subject = subject
        self.shape = shape
        self.speed = speed
        self.name = name
        self.frames = frames
    }

    /// "s02/fast/check07".
    public var label: String { "\(subject)/\(speed)/\(name)" }

    /// The path in millimetres, one point per frame.
    public var path: [Point] { frames.compactMap { $0.contacts.first?.mm } }

    /// Feeds the stroke's frames to fresh-from-reset recognizers and returns what they report;
    /// resets them afterwards, as the arena does once all touches are up.
    public func play(into recognizers: [any GestureRecognizer]) -> [GestureEvent] {
        var events: [GestureEvent] = []
        for frame in frames {
            for r in recognizers { r.handle(frame, events: &events) }
        }
        for r in recognizers { r.reset() }
        return events
    }
}
