/// One finger drawing a checkmark (discrete): decided when the finger lifts (CheckmarkAnalysis).
public final class CheckmarkRecognizer: StrokeRecognizer, DeclaredRecognizer, DecidedAtLift {
    public static let kind = GestureKind.checkmark
    public static let summary = "One finger draws a checkmark: down to a turn, then a longer leg up-right; told from a v by a score."

    public let rules: CheckmarkRules
    /// The last stroke's analysis with every measure (until `reset`, so a trace can show it),
    /// measured again when asked: deciding stops at the first gate that fails.
    public var analysis: CheckmarkAnalysis? {
        decided ? CheckmarkAnalysis.analyze(resampled, rules: rules) : nil
    }
    private var decided = false
    /// Points the stroke is resampled to.
    static let samples = 48

    public init(rules: CheckmarkRules, context: RecognizerContext) {
        self.rules = rules
        super.init(context: context, samples: Self.samples)
    }

    override func lifted(time: Double, events: inout [GestureEvent]) {
        decided = true
        if CheckmarkAnalysis.rulesOut(stroke, rules: rules) {
            assert(analysis?.isRecognized != true, "the checkmark's bound ruled out a check")
            state = .failed
            return
        }
        let a = CheckmarkAnalysis.analyze(resampled, rules: rules, complete: false)
        guard a.isRecognized else {
            state = .failed
            return
        }
        state = .recognized
        // The centre of a checkmark is its turn point: where the tick "lands".
        events.append(event(.checkmark, time: time, centerMM: a.turn))
    }

    override func clear() { decided = false }
}
