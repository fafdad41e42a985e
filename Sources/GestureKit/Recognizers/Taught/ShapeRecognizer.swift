/// What a taught-shape recognizer is tuned by.
public struct ShapeRules: RecognizerRules {
    /// A tap or a twitch is not a shape.
    public var minSizeMM = 10.0

    public init() {}

    public static let parameters: [Parameter<Self>] = [
        Parameter("min_size_mm", \.minSizeMM, range: 1...500, was: "min_size",
                  "Shortest the longer side of the stroke's box may be."),
    ]
}

/// One finger draws a shape an operator taught (`gestured learn`): one recognizer per device
/// holds every taught shape, and at lift reports the best one whose score reaches its threshold
/// (ShapeMatcher), or fails.
public final class ShapeRecognizer: StrokeRecognizer, DeclaredRecognizer, DecidedAtLift {
    public static let kind = GestureKind.shape
    public static let summary = "One finger draws a shape taught by example ([shapes], gestured learn)."

    public let rules: ShapeRules
    public let matcher: ShapeMatcher
    /// The last stroke's verdict, for `gestured learn` and `trace`.
    public private(set) var match: ShapeMatcher.Match?
    private var scratch = ShapeMatcher.Scratch()

    public init(rules: ShapeRules, context: RecognizerContext) {
        self.rules = rules
        matcher = ShapeMatcher(shapes: context.shapes)
        super.init(context: context, samples: ShapeExample.pointCount)
    }

    override public func handle(_ frame: TouchFrame, events: inout [GestureEvent]) {
        // Nothing taught: fail at once, so nothing waits on this recognizer.
        if matcher.isEmpty, state == .possible { state = .failed }
        super.handle(frame, events: &events)
    }

    override func lifted(time: Double, events: inout [GestureEvent]) {
        let box = stroke.boxMM
        guard !box.isEmpty, max(box.width, box.height) >= rules.minSizeMM else {
            state = .failed
            return
        }
        match = matcher.best(resampled, scratch: &scratch)
        guard let m = match else {
            state = .failed
            return
        }
        state = .recognized
        // The centre of a drawn shape is the middle of its box.
        var e = event(.shape, time: time, centerMM: box.center)
        e.shape = m.shape
        e.score = m.score
        events.append(e)
    }

    override func clear() { match = nil }
}
