/// One finger drawing a circle (discrete): decided when the finger lifts, from the whole path.
/// See CircleAnalysis for the rules; this class only reports.
public final class CircleRecognizer: StrokeRecognizer, DeclaredRecognizer, DecidedAtLift {
    public static let kind = GestureKind.circle
    public static let summary = "One finger draws a closed circle; reports centre, radius, direction and the region it encloses."

    public let rules: CircleRules
    /// The last stroke's analysis with every measure (until `reset`, so a trace can show it),
    /// measured again when asked: deciding stops at the first rule that fails.
    public var analysis: CircleAnalysis? {
        decided ? CircleAnalysis.analyze(resampled, rules: rules) : nil
    }
    private var decided = false
    /// Points the stroke is resampled to: enough for three turns at ~11° a step.
    static let samples = 96
    private var scratch = TurningScratch()

    public init(rules: CircleRules, context: RecognizerContext) {
        self.rules = rules
        super.init(context: context, samples: Self.samples)
    }

    override func lifted(time: Double, events: inout [GestureEvent]) {
        decided = true
        let stroke = self.stroke
        if CircleAnalysis.rulesOut(box: stroke.boxMM, lengthMM: stroke.lengthMM, samples: Self.samples, rules: rules) {
            assert(analysis?.isRecognized != true, "the circle's bound ruled out a circle")
            state = .failed
            return
        }
        let a = CircleAnalysis.analyze(resampled, rules: rules, scratch: &scratch, complete: false)
        guard a.isRecognized, let fit = a.fit else {
            state = .failed
            return
        }
        state = .recognized
        var e = event(.circle, time: time, centerMM: fit.center, enclosing: true)
        e.radiusMM = fit.radius
        e.fitError = a.fitError
        e.direction = a.direction
        e.turns = a.turns
        events.append(e)
    }

    override func clear() { decided = false }
}
