/// A taught shape's acceptance threshold, chosen from its own examples and the other shapes'
/// when it is learned (or loaded without one), and what the examples tell the operator.
///
/// Two distributions, as a per-class rejection threshold is chosen between positives and
/// negatives (Jackknife, Taranta et al., CHI 2017, which synthesizes both and takes the
/// F1-best cut):
/// - within: each example's score against the shape's other examples (leave one out);
/// - between: each example of every other taught shape scored against this shape;
/// - across: each example (whose person is known) against the examples of the other people —
///   how a stroke of someone who taught nothing scores, which one person's examples cannot show.
///
/// The rule: threshold = max(floor', min(nearest other + margin, median within)), with the
/// shape's floor' = max(lowest, min(floor, the `acrossQuantile` of across)): the floor guards
/// against shapes nobody taught, which no example set shows; a shape drawn differently by
/// different people (the arrow, the left brace) gets its floor lowered to where its examples
/// score against each other's people, down to `lowest`; a shape whose examples lie near another
/// taught shape is made stricter, up to where half its own examples would still pass (beyond
/// that the two shapes overlap, and `learn` says so). The constants were chosen
/// leave-one-subject-out on five people (docs/recognition.md): measured there, the untaught
/// look-alikes decide the threshold, and the taught shapes lay farther apart than the floor.
public struct ShapeCalibration: Sendable {
    /// The least calibrated threshold of a shape of up to `fewExamples` examples: for each
    /// held-out person, the most permissive floor (0.005 steps) keeping FPR ≤ 0.25 % on the other
    /// four chose 0.905–0.915 (own shape, K = 5) and 0.900–0.910 (other people's, K = 10), over
    /// five draws of the examples; 0.910 is the choice most often made.
    public static let floor = 0.910
    public static let fewExamples = 20
    /// The more examples, the nearer the nearest one lies to any stroke, untaught ones included:
    /// above `fewExamples` the floor rises linearly to TaughtShape.defaultThreshold at
    /// `manyExamples` (the same choice made with 120 examples per shape chose 0.915–0.920).
    public static let manyExamples = 120

    public static func floor(examples: Int) -> Double { floor(examples: examples, from: floor) }

    /// The floor for `examples` examples when the least is `base`.
    public static func floor(examples: Int, from base: Double) -> Double {
        let floor = base
        let t = Double(Swift.min(Swift.max(examples - fewExamples, 0), manyExamples - fewExamples)) / Double(manyExamples - fewExamples)
        return floor + (Swift.max(TaughtShape.defaultThreshold, floor) - floor) * t
    }
    /// The least a shape's floor goes down for examples of several people that disagree, and the
    /// quantile of their across-people scores it goes down to: chosen with the floor among
    /// floors 0.895–0.930, lowest 0.850 up to the floor, quantiles 0, ¼, ½ (`gestured-bench
    /// strangers`, docs/recognition.md) — on all five people 0.910, 0.905, 0; held out, each
    /// person's choice on the other four lowered it for two of five. Little room: what scores
    /// like a stranger's brace is an untaught left bracket.
    public static let lowest = 0.905
    public static let acrossQuantile = 0.0

    /// The floor of a shape of `examples` examples whose across-people scores are `across`
    /// (sorted; empty: one person, or who drew them not said — the floor stays).
    public static func floor(examples: Int, across: [Double], floor: Double = floor, lowest: Double = lowest,
                             quantile: Double = acrossQuantile) -> Double {
        let f = Self.floor(examples: examples, from: floor)
        guard !across.isEmpty else { return f }
        return Swift.max(Swift.min(lowest, f), Swift.min(f, Self.quantile(across, quantile)))
    }

    /// How far above the nearest other shape's example the threshold goes.
    public static let margin = 0.01

    /// A score of one example against a shape.
    public struct Score: Sendable, Equatable {
        public var shape: String
        /// 1-based, as `learn` numbers examples.
        public var example: Int
        public var score: Double

        public init(shape: String, example: Int, score: Double) {
            self.shape = shape
            self.example = example
            self.score = score
        }
    }

    /// Per example (in order): its best score against the shape's other examples.
    public let within: [Double]
    /// Per example whose person is known and with examples of another person (sorted, low
    /// first): its best score against the other people's examples.
    public let across: [Double]
    /// Per person (with examples of another person): their examples' best scores against the
    /// other people's, in example order — leave one teacher out, for `learn`'s report (TeacherReport).
    public let acrossByPerson: [String: [Double]]
    /// Distinct people who drew the examples (0: none said).
    public let people: Int
    /// The other shape's example that scores highest against this shape.
    public let nearestOther: Score?
    /// The threshold before the floor: min(nearest other + margin, median within); nil: a single
    /// example, nothing to calibrate from (TaughtShape.defaultThreshold applies).
    public let separating: Double?
    /// Examples of the shape calibrated.
    public let examples: Int
    /// The shape's floor (`floor(examples:across:)`).
    public var shapeFloor: Double { Self.floor(examples: examples, across: across) }
    /// The calibrated threshold.
    public var threshold: Double? { separating.map { Self.threshold(separating: $0, floor: shapeFloor) } }

    /// Thresholds are rounded to 1/steps (files stay short).
    public static let steps = 1000.0

    public static func threshold(separating: Double, floor: Double) -> Double {
        (Swift.max(floor, separating) * steps).rounded() / steps
    }

    public init(within: [Double], nearestOther: Score?, separating: Double?, examples: Int? = nil, across: [Double] = [], people: Int = 0,
                acrossByPerson: [String: [Double]] = [:]) {
        self.examples = examples ?? within.count
        self.within = within
        self.across = across.sorted()
        self.acrossByPerson = acrossByPerson
        self.people = people
        self.nearestOther = nearestOther
        self.separating = separating
    }

    /// Calibrates `shapes[index]` against its own examples and every other shape's.
    public init(_ index: Int, of shapes: [TaughtShape], turningExponent: Double = ShapeMatcher.turningExponent) {
        let shape = shapes[index]
        var within: [Double] = []
        if shape.examples.count >= 2 {
            for i in shape.examples.indices {
                var rest = shape
                rest.examples.remove(at: i)
                let points = ShapeMatcher.resampled(shape.examples[i].points)
                within.append(ShapeMatcher(shapes: [rest], turningExponent: turningExponent).ranked(points).first?.score ?? 0)
            }
        }
        var across: [Double] = []
        var byPerson: [String: [Double]] = [:]
        let people = Set(shape.examples.map(\.person).filter { !$0.isEmpty })
        if people.count >= 2 {
            for example in shape.examples where !example.person.isEmpty {
                var others = shape
                others.examples.removeAll { $0.person.isEmpty || $0.person == example.person }
                let points = ShapeMatcher.resampled(example.points)
                let score = ShapeMatcher(shapes: [others], turningExponent: turningExponent).ranked(points).first?.score ?? 0
                across.append(score)
                byPerson[example.person, default: []].append(score)
            }
        }
        let matcher = ShapeMatcher(shapes: [shape], turningExponent: turningExponent)
        var nearest: Score?
        for (s, other) in shapes.enumerated() where s != index {
            for (e, example) in other.examples.enumerated() {
                guard let m = matcher.ranked(ShapeMatcher.resampled(example.points)).first else { continue }
                if m.score > nearest?.score ?? -1 { nearest = Score(shape: other.name, example: e + 1, score: m.score) }
            }
        }
        self.init(within: within, nearestOther: nearest,
                  separating: within.isEmpty ? nil : nearest.map { Swift.min($0.score + Self.margin, Self.median(within)) } ?? 0,
                  examples: shape.examples.count, across: across, people: people.count, acrossByPerson: byPerson)
    }

    /// `shapes[index]` with its threshold calibrated against the others (the default when it
    /// has a single example); one set by the operator is kept.
    public static func calibrating(_ index: Int, of shapes: [TaughtShape]) -> TaughtShape {
        var shape = shapes[index]
        guard shape.thresholdOrigin != .set else { return shape }
        let t = ShapeCalibration(index, of: shapes).threshold
        shape.threshold = t ?? TaughtShape.defaultThreshold
        shape.thresholdOrigin = t == nil ? .default : .calibrated
        return shape
    }

    /// The `q` quantile of sorted `xs` (linear between neighbours).
    public static func quantile(_ xs: [Double], _ q: Double) -> Double {
        guard xs.count > 1 else { return xs.first ?? 0 }
        let at = Swift.min(Swift.max(q, 0), 1) * Double(xs.count - 1)
        let i = Int(at)
        guard i + 1 < xs.count else { return xs[xs.count - 1] }
        return xs[i] + (xs[i + 1] - xs[i]) * (at - Double(i))
    }

    static func median(_ xs: [Double]) -> Double {
        let s = xs.sorted()
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }
}
