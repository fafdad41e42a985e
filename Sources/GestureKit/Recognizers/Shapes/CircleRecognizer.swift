/// One finger drawing a circle (discrete): decided when the finger lifts, from the whole path.
/// See CircleAnalysis for the rules; this class only reports.
public final class CircleRecognizer: StrokeRecognizer, DeclaredRecognizer {
    public static let kind = GestureKind.circle
    public static let summary = "One finger draws a closed circle; reports centre, radius, direction and the region it encloses."

    /// Points the path is resampled to: enough for three turns at ~11° a step.
    static let samples = 96

    public let rules: CircleRules
    /// The last analysis and the points it saw (kept until `reset` so a trace can show them).
    public private(set) var resampled: [Point] = []
    public private(set) var analysis: CircleAnalysis?
    private var scratch = TurningScratch()

    public init(rules: CircleRules, context: RecognizerContext) {
        self.rules = rules
        super.init(regions: context.regions)
        resampled.reserveCapacity(Self.samples)
    }

    override func lifted(time: Double, events: inout [GestureEvent]) {
        stroke.resample(count: Self.samples, into: &resampled)
        let a = CircleAnalysis.analyze(resampled, rules: rules, scratch: &scratch)
        analysis = a
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

    override func clear() {
        resampled.removeAll(keepingCapacity: true)
        analysis = nil
    }
}
