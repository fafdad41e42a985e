/// One finger drawing a circle (discrete): decided when the finger lifts, from the whole path.
/// See CircleAnalysis for the rules; this class only follows the finger and reports.
public final class CircleRecognizer: GestureRecognizer {
    public static let spec = RecognizerSpec(
        name: "circle", kind: .circle,
        summary: "one finger draws a closed circle; reports centre, radius, direction and the region it encloses",
        parameters: [
            Parameter("tolerance", default: 0.2, range: 0.05...0.5,
                      summary: "relative radial error allowed; also sizes the inner square and the box cover"),
            Parameter("min_radius", default: 5, range: 1...500, unit: "mm", summary: "smallest circle radius"),
            Parameter("min_turns", default: 0.82, range: 0.5...2, unit: "turns",
                      summary: "angle the path must sweep around the centre (1 = closed)"),
            Parameter("max_turns", default: 3, range: 1...10, unit: "turns", summary: "most turns allowed"),
            Parameter("max_turning_deviation", default: 0.25, range: 0.05...1, unit: "rad",
                      summary: "RMS deviation from turning at an even rate; rejects rectangles and polygons"),
        ],
        make: { CircleRecognizer(setup: $0) })

    /// Points the path is resampled to: enough for three turns at ~11° a step.
    static let samples = 96

    public let name = "circle"
    public let kind = GestureKind.circle
    public private(set) var state = RecognizerState.possible
    public var deadline: Double? { nil }

    public let rules: CircleRules
    public let regions: [Region]
    /// The finger's path, and the last analysis (kept until `reset` so a trace can show them).
    public private(set) var stroke = Stroke()
    public private(set) var resampled: [Point] = []
    private var scratch = TurningScratch()
    public private(set) var analysis: CircleAnalysis?
    private var finger = SingleFinger()

    public init(rules: CircleRules = CircleRules(), regions: [Region] = []) {
        self.rules = rules
        self.regions = regions
        resampled.reserveCapacity(Self.samples)
    }

    public convenience init(setup: RecognizerSetup) {
        var r = CircleRules()
        let p = setup.parameters
        r.tolerance = p["tolerance"]
        r.minRadiusMM = p["min_radius"]
        r.minTurns = p["min_turns"]
        r.maxTurns = p["max_turns"]
        r.maxTurningDeviation = p["max_turning_deviation"]
        self.init(rules: r, regions: setup.regions)
    }

    public func handle(_ frame: TouchFrame, events: inout [GestureEvent]) {
        guard state == .possible else { return }
        switch finger.step(frame, into: &stroke) {
        case .idle, .moved: break
        case .secondFinger: state = .failed
        case .cancelled: state = .cancelled
        case .lifted: finish(time: frame.time, events: &events)
        }
    }

    private func finish(time: Double, events: inout [GestureEvent]) {
        stroke.resample(count: Self.samples, into: &resampled)
        let a = CircleAnalysis.analyze(resampled, rules: rules, scratch: &scratch)
        analysis = a
        guard a.isRecognized, let fit = a.fit else {
            state = .failed
            return
        }
        state = .recognized
        let fallback = finger.surface.normalized(fit.center)
        var e = GestureEvent(
            kind: .circle, phase: .recognized, time: time, fingers: 1,
            center: StrokeGeometry.position(of: fit.center, stroke: stroke, fallback: fallback),
            centerMM: fit.center,
            region: StrokeGeometry.enclosedRegion(by: stroke.positions, in: regions)?.name)
        e.radiusMM = fit.radius
        e.fitError = a.fitError
        e.direction = a.direction
        e.turns = a.turns
        events.append(e)
    }

    public func tick(now: Double, events: inout [GestureEvent]) {}

    public func cancel(time: Double, events: inout [GestureEvent]) {
        if !state.isFinished { state = .cancelled }
    }

    public func reset() {
        state = .possible
        stroke.removeAll()
        resampled.removeAll(keepingCapacity: true)
        analysis = nil
        finger.reset()
    }
}
