/// One finger drawing a checkmark (discrete): decided when the finger lifts (CheckmarkAnalysis).
public final class CheckmarkRecognizer: GestureRecognizer {
    public static let spec = RecognizerSpec(
        name: "checkmark", kind: .checkmark,
        summary: "one finger draws a checkmark: down to a turn, then a longer leg up-right; told from a v by a score",
        parameters: [
            Parameter("min_ratio", default: 1, range: 1...5,
                      summary: "second leg length over first leg length, at least"),
            Parameter("min_first", default: 3, range: 0.5...100, unit: "mm", summary: "shortest first leg"),
            Parameter("min_second", default: 10, range: 1...300, unit: "mm", summary: "shortest second leg"),
            Parameter("hysteresis", default: 2, range: 0...20, unit: "mm",
                      summary: "how far a leg may go back before it breaks the shape (or 10 % of its length)"),
            Parameter("max_bow", default: 0.3, range: 0.05...1,
                      summary: "how far the second leg may bow from straight, over its length"),
            Parameter("max_hook", default: 2, range: 0...5,
                      summary: "longest hook at touch-down before the first leg, over the first leg's length"),
            Parameter("min_score", default: 0, range: -20...20,
                      summary: "check-versus-v score to reach; higher rejects more v's and more untidy checks"),
        ],
        make: { CheckmarkRecognizer(setup: $0) })

    static let samples = 48

    public let name = "checkmark"
    public let kind = GestureKind.checkmark
    public private(set) var state = RecognizerState.possible
    public var deadline: Double? { nil }

    public let rules: CheckmarkRules
    public let regions: [Region]
    public private(set) var stroke = Stroke()
    public private(set) var resampled: [Point] = []
    public private(set) var analysis: CheckmarkAnalysis?
    private var finger = SingleFinger()

    public init(rules: CheckmarkRules = CheckmarkRules(), regions: [Region] = []) {
        self.rules = rules
        self.regions = regions
        resampled.reserveCapacity(Self.samples)
    }

    public convenience init(setup: RecognizerSetup) {
        var r = CheckmarkRules()
        let p = setup.parameters
        r.minRatio = p["min_ratio"]
        r.minFirstMM = p["min_first"]
        r.minSecondMM = p["min_second"]
        r.hysteresisMM = p["hysteresis"]
        r.maxBow = p["max_bow"]
        r.maxHook = p["max_hook"]
        r.minScore = p["min_score"]
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
        let a = CheckmarkAnalysis.analyze(resampled, rules: rules)
        analysis = a
        guard a.isRecognized else {
            state = .failed
            return
        }
        state = .recognized
        // The centre of a checkmark is its turn point: where the tick "lands".
        let fallback = finger.surface.normalized(a.turn)
        let center = StrokeGeometry.position(of: a.turn, stroke: stroke, fallback: fallback)
        events.append(GestureEvent(kind: .checkmark, phase: .recognized, time: time, fingers: 1,
                                   center: center, centerMM: a.turn,
                                   region: StrokeGeometry.region(containing: center, in: regions)?.name))
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
