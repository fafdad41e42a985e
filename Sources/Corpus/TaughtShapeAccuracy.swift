import GestureKit

/// How well taught shapes are found and how well untaught ones are rejected, on the $1 data
/// set's five people (docs/recognition.md). Eight shapes are taught, the other eight are the
/// open set: strokes of shapes nobody taught, which must not be reported as anything.
///
/// - Own shape: one person teaches K random strokes per shape; tested on all their other strokes.
/// - Anyone's: four people's strokes are the examples, the fifth person is tested; each in turn.
///
/// A false positive is any stroke reported as a shape it is not (an untaught shape accepted, or
/// a taught one taken for another); FPR is over every tested stroke.
public struct TaughtShapeAccuracy: Sendable {
    public static let taught = ["arrow", "caret", "delete_mark", "pigtail", "star", "triangle", "x", "left_curly_brace"]

    public struct Sample: Sendable {
        public var subject: String
        public var shape: String
        /// Resampled to ShapeExample.pointCount points, mm.
        public var points: [Point]
    }

    /// One tested stroke: the truth, and every taught shape's best score.
    public struct Trial: Sendable {
        public var subject: String
        public var shape: String
        public var scores: [(shape: String, score: Double)]
        /// Per shape, its calibration's threshold before the floor (ShapeCalibration.separating):
        /// the calibrated threshold for any floor, so a floor can be chosen leave-one-subject-out.
        public var separating: [String: Double] = [:]
        /// Per shape, its examples' scores against the other people's (ShapeCalibration.across),
        /// so the shape's floor can be chosen with the rule's constants, held out.
        public var across: [String: [Double]] = [:]
        /// Per shape, how many examples taught it.
        public var examples: [String: Int] = [:]
    }

    public struct Rates: Sendable {
        public var tpr: Double
        public var fpr: Double
        /// Untaught strokes accepted as some shape, over the untaught strokes.
        public var openSetAccepted: Double

        public init(tpr: Double, fpr: Double, openSetAccepted: Double) {
            self.tpr = tpr
            self.fpr = fpr
            self.openSetAccepted = openSetAccepted
        }
    }

    public var samples: [Sample]
    /// The matcher's turning correction (ShapeMatcher.turningExponent; 0: none), for comparison.
    public var turningExponent = ShapeMatcher.turningExponent

    // MARK: the strokes

    /// The corpus's strokes, each as the shape recognizer sees it at lift: its path resampled.
    public init(corpus: UnistrokeCorpus) {
        var resampled: [Point] = []
        samples = corpus.strokes.map { c in
            var stroke = Stroke()
            for p in c.path { stroke.append(mm: p, position: p) }
            stroke.resample(count: ShapeExample.pointCount, into: &resampled)
            return Sample(subject: c.subject, shape: c.shape, points: resampled)
        }
    }

    public var subjects: [String] { Array(Set(samples.map(\.subject))).sorted() }

    // MARK: the protocols

    func shapes(_ examples: [String: [Int]]) -> [TaughtShape] {
        Self.taught.map { name in
            TaughtShape(name: name, examples: (examples[name] ?? []).map {
                ShapeExample(points: ShapeExample.normalized(samples[$0].points), source: "", date: "", person: samples[$0].subject)
            })
        }
    }

    /// What compares a stroke with the examples.
    public enum Method: Sendable {
        /// gestured's: direction profiles aligned by DTW (ShapeMatcher).
        case directions
        /// The $1 recognizer's path distance without its rotation search (Wobbrock et al. 2007):
        /// points scaled to a unit square, centroid at 0, mean distance between corresponding
        /// points; score 1 − d / (½√2), $1's own. The baseline the direction profiles are compared
        /// with (docs/recognition.md).
        case pathDistance
    }

    /// $1's normalization: non-uniform scale to the unit square, centroid to the origin.
    static func unitSquare(_ points: [Point]) -> [Point] {
        var box = Rect.empty
        var c = Point.zero
        for p in points { box.include(p) }
        let w = max(box.width, 1e-9), h = max(box.height, 1e-9)
        let scaled = points.map { Point(x: $0.x / w, y: $0.y / h) }
        for p in scaled { c += p }
        c = c / Double(max(scaled.count, 1))
        return scaled.map { $0 - c }
    }

    private func pathDistanceScores(_ points: [Point], _ shapes: [TaughtShape], _ squares: [[[Point]]]) -> [(shape: String, score: Double)] {
        let q = Self.unitSquare(points)
        var out: [(shape: String, score: Double)] = []
        for (s, shape) in shapes.enumerated() {
            var best = Double.infinity
            for t in squares[s] {
                var d = 0.0
                for i in 0..<min(q.count, t.count) { d += q[i].distance(to: t[i]) }
                best = min(best, d / Double(q.count))
            }
            out.append((shape.name, 1 - best / (0.5 * 2.0.squareRoot())))
        }
        return out.sorted { $0.score > $1.score }
    }

    /// `acceptedOnly`: each trial keeps only the accepted best shape (ShapeMatcher.best, which
    /// abandons most comparisons early) — the same rates at the shapes' own threshold, several
    /// times faster, but no scores to choose another threshold from.
    /// `calibrated`: each trial also carries its shapes' calibrations (scores stay all shapes').
    func trials(_ shapes: [TaughtShape], _ tests: [Int], acceptedOnly: Bool, method: Method, calibrated: Bool) -> [Trial] {
        if method == .pathDistance {
            let squares = shapes.map { $0.examples.map { Self.unitSquare($0.points) } }
            return tests.map { i in
                Trial(subject: samples[i].subject, shape: samples[i].shape, scores: pathDistanceScores(samples[i].points, shapes, squares))
            }
        }
        let matcher = ShapeMatcher(shapes: shapes, turningExponent: turningExponent)
        var scratch = ShapeMatcher.Scratch()
        var separating: [String: Double] = [:], across: [String: [Double]] = [:], counts: [String: Int] = [:]
        if calibrated {
            for (s, shape) in shapes.enumerated() {
                let c = ShapeCalibration(s, of: shapes, turningExponent: turningExponent)
                separating[shape.name] = c.separating
                across[shape.name] = c.across
                counts[shape.name] = c.examples
            }
        }
        return tests.map { i in
            let scores: [(shape: String, score: Double)] = acceptedOnly
                ? matcher.best(samples[i].points, scratch: &scratch).map { [($0.shape, $0.score)] } ?? []
                : matcher.ranked(samples[i].points).map { ($0.shape, $0.score) }
            return Trial(subject: samples[i].subject, shape: samples[i].shape, scores: scores, separating: separating,
                         across: across, examples: counts)
        }
    }

    /// Own shape: for each person and repetition, K random strokes per taught shape teach it.
    public func ownShape(k: Int, repetitions: Int, seed: UInt64, acceptedOnly: Bool = false, method: Method = .directions,
                         calibrated: Bool = false) -> [Trial] {
        var rng = SeededRandom(seed: seed)
        var out: [Trial] = []
        for _ in 0..<repetitions {
            for subject in subjects {
                out += taughtByThemselves(subject, k: k, rng: &rng, acceptedOnly: acceptedOnly, method: method, calibrated: calibrated)
            }
        }
        return out
    }

    /// Anyone's: every stroke of the other people teaches (or `perPerson` random ones of each).
    public func anyone(perPerson: Int?, seed: UInt64, acceptedOnly: Bool = false, method: Method = .directions,
                       calibrated: Bool = false) -> [Trial] {
        var rng = SeededRandom(seed: seed)
        var out: [Trial] = []
        for subject in subjects {
            var examples: [String: [Int]] = [:]
            for name in Self.taught {
                for other in subjects where other != subject {
                    let pool = samples.indices.filter { samples[$0].subject == other && samples[$0].shape == name }
                    examples[name, default: []] += perPerson.map { Array(pool.shuffled(using: &rng).prefix($0)) } ?? pool
                }
            }
            let tests = samples.indices.filter { samples[$0].subject == subject }
            out += trials(shapes(examples), tests, acceptedOnly: acceptedOnly, method: method, calibrated: calibrated)
        }
        return out
    }

    /// User-independent: K random strokes per shape, from all the other people's, teach it; the
    /// person is tested on every stroke; each person in turn, `repetitions` draws.
    public func otherPeople(k: Int, repetitions: Int, seed: UInt64, calibrated: Bool = false) -> [Trial] {
        var rng = SeededRandom(seed: seed)
        var out: [Trial] = []
        for _ in 0..<repetitions {
            for subject in subjects {
                out += taughtByOthers(tested: subject, teachers: Set(subjects).subtracting([subject]), k: k, rng: &rng, calibrated: calibrated)
            }
        }
        return out
    }

    /// `tested`'s strokes, with each shape taught by K random strokes of the `teachers`' (all
    /// of them pooled).
    public func taughtByOthers(tested: String, teachers: Set<String>, k: Int, rng: inout SeededRandom, calibrated: Bool = true) -> [Trial] {
        var examples: [String: [Int]] = [:]
        for name in Self.taught {
            let pool = samples.indices.filter { teachers.contains(samples[$0].subject) && samples[$0].shape == name }
            examples[name] = Array(pool.shuffled(using: &rng).prefix(k))
        }
        let tests = samples.indices.filter { samples[$0].subject == tested }
        return trials(shapes(examples), tests, acceptedOnly: false, method: .directions, calibrated: calibrated)
    }

    /// Each taught shape from `perTeacher` random strokes of each of the `teachers` (as an
    /// operator would have a few colleagues draw it), each example naming its teacher, calibrated.
    public func shapes(perTeacher: Int, teachers: Set<String>, rng: inout SeededRandom) -> [TaughtShape] {
        let taught = shapes(examples(perTeacher: perTeacher, teachers: teachers, rng: &rng))
        return taught.indices.map { ShapeCalibration.calibrating($0, of: taught) }
    }

    private func examples(perTeacher: Int, teachers: Set<String>, rng: inout SeededRandom) -> [String: [Int]] {
        var examples: [String: [Int]] = [:]
        for name in Self.taught {
            for teacher in teachers.sorted() {
                let pool = samples.indices.filter { samples[$0].subject == teacher && samples[$0].shape == name }
                examples[name, default: []] += pool.shuffled(using: &rng).prefix(perTeacher)
            }
        }
        return examples
    }

    /// `tested`'s strokes, with each shape taught by `perTeacher` random strokes of each teacher.
    public func taughtByEachTeacher(tested: String, teachers: Set<String>, perTeacher: Int, rng: inout SeededRandom) -> [Trial] {
        let tests = samples.indices.filter { samples[$0].subject == tested }
        return trials(shapes(examples(perTeacher: perTeacher, teachers: teachers, rng: &rng)), tests, acceptedOnly: false,
                      method: .directions, calibrated: true)
    }

    /// `subject`'s own strokes: K random ones per shape teach it, the rest are tested.
    public func taughtByThemselves(_ subject: String, k: Int, rng: inout SeededRandom, acceptedOnly: Bool = false,
                                   method: Method = .directions, calibrated: Bool = true) -> [Trial] {
        var examples: [String: [Int]] = [:]
        var used = Set<Int>()
        for name in Self.taught {
            let pool = samples.indices.filter { samples[$0].subject == subject && samples[$0].shape == name }
            let chosen = Array(pool.shuffled(using: &rng).prefix(k))
            examples[name] = chosen
            used.formUnion(chosen)
        }
        let tests = samples.indices.filter { samples[$0].subject == subject && !used.contains($0) }
        return trials(shapes(examples), tests, acceptedOnly: acceptedOnly, method: method, calibrated: calibrated)
    }

    // MARK: rates and thresholds

    /// Rates over several random draws of the examples: one draw of K examples moves a figure
    /// by more than the differences between methods, so targets are judged on the mean.
    public struct OverDraws: Sendable {
        public var draws: [Rates]
        public init(_ draws: [Rates]) { self.draws = draws }
        public var meanTPR: Double { draws.map(\.tpr).reduce(0, +) / Double(max(draws.count, 1)) }
        public var meanFPR: Double { draws.map(\.fpr).reduce(0, +) / Double(max(draws.count, 1)) }
        public var tprRange: ClosedRange<Double> { (draws.map(\.tpr).min() ?? 0)...(draws.map(\.tpr).max() ?? 0) }
        public var fprRange: ClosedRange<Double> { (draws.map(\.fpr).min() ?? 0)...(draws.map(\.fpr).max() ?? 0) }
        /// The target, judged on the means.
        public func meets(tpr: Double, maxFPR: Double) -> Bool { !draws.isEmpty && meanTPR >= tpr && meanFPR <= maxFPR }
    }

    public static func rates(_ trials: [Trial], threshold: Double) -> Rates {
        rates(trials) { _, _ in threshold }
    }

    /// With the shapes' calibrated thresholds for `floor` (ShapeMatcher.best: the best shape
    /// whose score reaches its own threshold), one floor for every shape: the rule before the
    /// across-people scores lowered a shape's (those: NestedShapeAccuracy).
    public static func rates(_ trials: [Trial], floor: Double) -> Rates {
        rates(trials) { trial, shape in ShapeCalibration.threshold(separating: trial.separating[shape] ?? 0, floor: floor) }
    }

    static func rates(_ trials: [Trial], threshold: (Trial, String) -> Double) -> Rates {
        var positives = 0, hits = 0, falses = 0, openSet = 0, openAccepted = 0
        for t in trials {
            let isTaught = taught.contains(t.shape)
            if isTaught { positives += 1 } else { openSet += 1 }
            guard let best = t.scores.first(where: { $0.score >= threshold(t, $0.shape) }) else { continue }
            if best.shape == t.shape { hits += 1 } else { falses += 1 }
            if !isTaught { openAccepted += 1 }
        }
        return Rates(tpr: Double(hits) / Double(max(positives, 1)), fpr: Double(falses) / Double(max(trials.count, 1)),
                     openSetAccepted: Double(openAccepted) / Double(max(openSet, 1)))
    }

    /// The most permissive threshold (on a 0.005 grid) whose FPR stays within `maxFPR`.
    public static func threshold(_ trials: [Trial], maxFPR: Double) -> Double {
        var t = 1.0
        while t > 0.5, rates(trials, threshold: t - 0.005).fpr <= maxFPR { t -= 0.005 }
        return (t * 1000).rounded() / 1000
    }

    /// Calibrated, leave one subject out: each person's floor (ShapeCalibration.floor) is the most
    /// permissive (0.005 steps) keeping FPR ≤ `maxFPR` on the other people's trials; that person
    /// is scored with their shapes calibrated with it. Nothing is set on the person scored.
    public static func calibratedLeaveOneSubjectOut(_ trials: [Trial], subjects: [String], maxFPR: Double) -> (rates: Rates, floors: [Double]) {
        var floors: [Double] = []
        var scored: [Trial] = []
        for s in subjects {
            let others = trials.filter { $0.subject != s }
            var f = 1.0
            while f > 0.5, rates(others, floor: f - 0.005).fpr <= maxFPR { f -= 0.005 }
            f = (f * 1000).rounded() / 1000
            floors.append(f)
            for var t in trials where t.subject == s {
                t.separating = t.separating.mapValues { Swift.max($0, f) }
                scored.append(t)
            }
        }
        return (rates(scored, floor: 0), floors)
    }

    /// Leave one subject out: each person's threshold is chosen on the others' trials (FPR within
    /// `maxFPR` there), then that person is scored with it; the rates are over all five.
    public static func leaveOneSubjectOut(_ trials: [Trial], subjects: [String], maxFPR: Double) -> (rates: Rates, thresholds: [Double]) {
        var scored: [Trial] = []
        var all: [(Trial, Double)] = []
        var thresholds: [Double] = []
        for s in subjects {
            let t = threshold(trials.filter { $0.subject != s }, maxFPR: maxFPR)
            thresholds.append(t)
            for trial in trials where trial.subject == s { all.append((trial, t)) }
        }
        // Score each held-out trial with its own threshold: rescale so one global cut applies.
        scored = all.map { trial, t in
            var copy = trial
            copy.scores = trial.scores.map { ($0.shape, $0.score - t + 0.5) }
            return copy
        }
        return (rates(scored, threshold: 0.5), thresholds)
    }
}
