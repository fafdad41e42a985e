/// One finger drawing a circle (discrete): decided when the finger lifts, from the whole path.
/// See CircleAnalysis for the rules; this class only reports.
public final class CircleRecognizer: StrokeRecognizer, DeclaredRecognizer, UntimedRecognizer {
    public static let kind = GestureKind.circle
    public static let summary = "One finger draws a closed circle; reports centre, radius, direction and the region it encloses."

    public let rules: CircleRules
    /// The last stroke's analysis with every measure (until `reset`, so a trace can show it),
    /// measured again when asked: deciding stops at the first rule that fails.
    public var analysis: CircleAnalysis? {
        decided ? CircleAnalysis.analyze(resampled, rules: rules) : nil
    }
    private var decided = false
    private var scratch = TurningScratch()

    public init(rules: CircleRules, context: RecognizerContext) {
        self.rules = rules
        // Enough points for three turns at ~11° a step.
        super.init(regions: context.regions, samples: 96)
    }

    override func lifted(time: Double, events: inout [GestureEvent]) {
        let a = CircleAnalysis.analyze(resampled, rules: rules, scratch: &scratch, complete: false)
        decided = true
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
