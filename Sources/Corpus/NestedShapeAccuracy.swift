import GestureKit

/// Taught shapes drawn by people who taught nothing, measured so that the measurement cannot fit
/// its own test (nested leave-one-subject-out): for each held-out person, the calibration's
/// constants (ShapeCalibration's floor, lowest and across quantile) are chosen on the other four
/// alone — each of them in turn tested with the shapes taught by the remaining three — and the
/// held-out person is then tested once, taught by the four, over several random draws of the
/// examples. The held-out person's strokes take part in no choice.
public struct NestedShapeAccuracy: Sendable {
    /// The calibration's constants a choice is made among.
    public struct Setting: Sendable, Equatable, CustomStringConvertible {
        public var floor: Double
        public var lowest: Double
        public var quantile: Double

        public init(floor: Double, lowest: Double, quantile: Double) {
            self.floor = floor
            self.lowest = lowest
            self.quantile = quantile
        }

        /// The rule before issue 39: one floor for every shape, whoever drew the examples.
        public var ignoresPeople: Bool { lowest >= floor }

        public static let shipped = Setting(floor: ShapeCalibration.floor, lowest: ShapeCalibration.lowest, quantile: ShapeCalibration.acrossQuantile)
        public static let before = Setting(floor: ShapeCalibration.floor, lowest: ShapeCalibration.floor, quantile: 0)

        public var description: String {
            ignoresPeople ? "floor \(text(floor)), not lowered"
                : "floor \(text(floor)), lowest \(text(lowest)), quantile \(DecimalText.string(quantile, places: 2))"
        }
    }

    /// What a choice is made among: floors 0.895–0.930, lowest 0.850 up to the floor (equal:
    /// the rule before), quantiles 0, ¼, ½ (0.005 steps). Ordered from permissive to strict
    /// within a floor, floors rising (a higher quantile is stricter: a higher score).
    public static let grid: [Setting] = {
        var out: [Setting] = []
        for f in 0...7 {
            let floor = 0.895 + 0.005 * Double(f)
            for l in 0..<(9 + f) {
                let lowest = 0.850 + 0.005 * Double(l)
                for q in [0.0, 0.25, 0.5] { out.append(Setting(floor: floor, lowest: lowest, quantile: q)) }
            }
            out.append(Setting(floor: floor, lowest: floor, quantile: 0))
        }
        return out
    }()

    /// One tested stroke in a compact form: per taught shape (TaughtShapeAccuracy.taught order)
    /// its best score, the threshold before the floor and the across-people scores.
    struct Scored: Sendable {
        var subject: String
        var shape: String
        /// Index of the stroke's shape among the taught, −1 for an untaught one.
        var truth: Int
        var score: [Double]
        var separating: [Double]
        var across: [[Double]]
        var examples: [Int]

        init(_ t: TaughtShapeAccuracy.Trial) {
            subject = t.subject
            shape = t.shape
            truth = TaughtShapeAccuracy.taught.firstIndex(of: t.shape) ?? -1
            let names = TaughtShapeAccuracy.taught
            score = names.map { n in t.scores.first { $0.shape == n }?.score ?? -1 }
            separating = names.map { t.separating[$0] ?? 0 }
            across = names.map { t.across[$0] ?? [] }
            examples = names.map { t.examples[$0] ?? 0 }
        }
    }

    /// Counts over tested strokes.
    public struct Tally: Sendable {
        public var positives = Array(repeating: 0, count: TaughtShapeAccuracy.taught.count)
        public var hits = Array(repeating: 0, count: TaughtShapeAccuracy.taught.count)
        public var tests = 0
        public var falses = 0

        public init() {}

        public var recognized: Double { Double(hits.reduce(0, +)) / Double(max(positives.reduce(0, +), 1)) }
        public var falseRate: Double { Double(falses) / Double(max(tests, 1)) }
        /// Per taught shape, the share of its strokes recognized.
        public var perShape: [Double] { zip(hits, positives).map { Double($0) / Double(max($1, 1)) } }

        /// One tested stroke and the shape reported for it (−1: none).
        mutating func add(_ s: Scored, reported best: Int) {
            tests += 1
            if s.truth >= 0 { positives[s.truth] += 1 }
            guard best >= 0 else { return }
            if best == s.truth { hits[best] += 1 } else { falses += 1 }
        }

        public static func + (a: Tally, b: Tally) -> Tally {
            var t = a
            for i in t.hits.indices {
                t.hits[i] += b.hits[i]
                t.positives[i] += b.positives[i]
            }
            t.tests += b.tests
            t.falses += b.falses
            return t
        }
    }

    /// Per shape, the thresholds a setting gives one teaching (the trials of one teaching share
    /// them, so they are worked out once per teaching).
    static func thresholds(_ s: Scored, _ setting: Setting) -> [Double] {
        s.separating.indices.map { i in
            let floor = ShapeCalibration.floor(examples: s.examples[i], across: s.across[i], floor: setting.floor,
                                               lowest: setting.lowest, quantile: setting.quantile)
            return ShapeCalibration.threshold(separating: s.separating[i], floor: floor)
        }
    }

    /// The shape reported (its index, −1: none): the best whose score reaches its own threshold (ShapeMatcher.best).
    static func reported(_ s: Scored, _ thresholds: [Double]) -> Int {
        var best = -1
        for i in s.score.indices where s.score[i] >= thresholds[i] && (best < 0 || s.score[i] > s.score[best]) { best = i }
        return best
    }

    static func tally(_ trials: [Scored], _ setting: Setting) -> Tally {
        var t = Tally()
        var cache: (across: [[Double]], separating: [Double], thresholds: [Double])?
        for s in trials {
            if cache == nil || cache!.separating != s.separating || cache!.across != s.across {
                cache = (s.across, s.separating, thresholds(s, setting))
            }
            t.add(s, reported: reported(s, cache!.thresholds))
        }
        return t
    }

    /// Counts with the same thresholds for every stroke (ShapeOracle's).
    static func tally(_ trials: [Scored], thresholds: [Double]) -> Tally {
        trials.reduce(into: Tally()) { $0.add($1, reported: reported($1, thresholds)) }
    }

    /// The setting with the most strokes recognized on `others` whose false-report rate stays
    /// within `maxFalse` there and on `own` (people taught by their own strokes); of equals, the
    /// strictest (grid order: stricter later, so ≥ keeps the later).
    static func choose(others: [Scored], own: [Scored], among grid: [Setting], maxFalse: Double) -> (Setting, Tally)? {
        var best: (Setting, Tally)?
        for g in grid {
            let t = tally(others, g)
            guard t.falseRate <= maxFalse, tally(own, g).falseRate <= maxFalse else { continue }
            if best == nil || t.recognized >= best!.1.recognized { best = (g, t) }
        }
        return best
    }

    /// One held-out person's results.
    public struct HeldOut: Sendable {
        public var subject: String
        /// Chosen on the other four (the full rule, and the rule before issue 39).
        public var chosen: Setting
        public var chosenBefore: Setting
        public var inner: Tally
        /// Per draw: taught by K strokes of the other four, chosen setting; and the rule before
        /// with its own nested choice; and the shipped constants (chosen on all five: not held out).
        public var draws: [Tally]
        public var drawsBefore: [Tally]
        public var drawsShipped: [Tally]
        /// The draws' tested strokes, for `explain`.
        var trials: [[Scored]] = []
        /// Taught by their own K strokes, chosen setting.
        public var own: Tally
        public var ownBefore: Tally
    }

    public var heldOut: [HeldOut] = []
    /// The choice made with all five people as the inner ones: what ShapeCalibration ships.
    public var allFive: (Setting, Tally)?
    public var draws: Int

    /// - k: examples per shape taught by other people; ownK: by the person themselves.
    /// - draws: outer random draws; innerDraws: draws per inner person; ownDraws: own-shape draws.
    /// - grid: the settings chosen among (the rule before: those of them that ignore people).
    /// - perTeacher: when given, each shape is taught by that many random strokes of *each*
    ///   teacher, each example naming its teacher (as `learn --person`), instead of K pooled.
    public static func run(_ a: TaughtShapeAccuracy, k: Int = 10, perTeacher: Int? = nil, ownK: Int = 5, draws: Int = 5, innerDraws: Int = 3,
                           ownDraws: Int = 2, seed: UInt64 = 1, maxFalse: Double = 0.0025, grid: [Setting] = NestedShapeAccuracy.grid) -> NestedShapeAccuracy {
        let subjects = a.subjects
        func taught(_ tested: String, by teachers: Set<String>, rng: inout SeededRandom) -> [TaughtShapeAccuracy.Trial] {
            guard let n = perTeacher else { return a.taughtByOthers(tested: tested, teachers: teachers, k: k, rng: &rng) }
            return a.taughtByEachTeacher(tested: tested, teachers: teachers, perTeacher: n, rng: &rng)
        }
        var ownRng = SeededRandom(seed: seed &+ 0x5eed)
        var own: [String: [Scored]] = [:]
        for _ in 0..<ownDraws {
            for s in subjects { own[s, default: []] += a.taughtByThemselves(s, k: ownK, rng: &ownRng).map(Scored.init) }
        }
        // Inner trials: person q tested, taught by `teachers`; memoized by (q, teachers).
        var innerCache: [String: [Scored]] = [:]
        func inner(_ q: String, teachers: Set<String>) -> [Scored] {
            let key = q + ":" + teachers.sorted().joined(separator: ",")
            if let c = innerCache[key] { return c }
            var rng = SeededRandom(seed: seed &+ UInt64(truncatingIfNeeded: key.hashValueStable))
            var out: [Scored] = []
            for _ in 0..<innerDraws { out += taught(q, by: teachers, rng: &rng).map(Scored.init) }
            innerCache[key] = out
            return out
        }
        let before = grid.filter(\.ignoresPeople)
        var result = NestedShapeAccuracy(draws: draws)
        for p in subjects {
            let rest = subjects.filter { $0 != p }
            var others: [Scored] = [], ownOthers: [Scored] = []
            for q in rest {
                others += inner(q, teachers: Set(rest).subtracting([q]))
                ownOthers += own[q] ?? []
            }
            let chosen = choose(others: others, own: ownOthers, among: grid, maxFalse: maxFalse) ?? (Setting.before, Tally())
            let chosenBefore = choose(others: others, own: ownOthers, among: before, maxFalse: maxFalse)?.0 ?? Setting.before
            var h = HeldOut(subject: p, chosen: chosen.0, chosenBefore: chosenBefore, inner: chosen.1, draws: [], drawsBefore: [],
                            drawsShipped: [], own: tally(own[p] ?? [], chosen.0), ownBefore: tally(own[p] ?? [], chosenBefore))
            for d in 0..<draws {
                var rng = SeededRandom(seed: seed &+ UInt64(d) &* 1_000_003 &+ UInt64(subjects.firstIndex(of: p) ?? 0))
                let trials = taught(p, by: Set(rest), rng: &rng).map(Scored.init)
                h.trials.append(trials)
                h.draws.append(tally(trials, chosen.0))
                h.drawsBefore.append(tally(trials, chosenBefore))
                h.drawsShipped.append(tally(trials, .shipped))
            }
            result.heldOut.append(h)
        }
        var all: [Scored] = [], allOwn: [Scored] = []
        for q in subjects {
            all += inner(q, teachers: Set(subjects).subtracting([q]))
            allOwn += own[q] ?? []
        }
        result.allFive = choose(others: all, own: allOwn, among: grid, maxFalse: maxFalse)
        return result
    }

    /// What went wrong with the chosen settings, over every draw: per taught shape, the scores
    /// of its strokes not recognized; each false report (stroke's shape → reported, score / threshold).
    public func explain() -> [String] {
        var missed: [String: [Double]] = [:], falses: [String: Int] = [:]
        for h in heldOut {
            for trials in h.trials {
                var cache: (separating: [Double], thresholds: [Double])?
                for s in trials {
                    if cache == nil || cache!.separating != s.separating { cache = (s.separating, Self.thresholds(s, h.chosen)) }
                    let t = cache!.thresholds
                    let best = Self.reported(s, t)
                    if s.truth >= 0, best != s.truth { missed[s.shape, default: []].append(s.score[s.truth] - t[s.truth]) }
                    if best >= 0, best != s.truth {
                        falses["\(h.subject) \(s.shape) → \(TaughtShapeAccuracy.taught[best])", default: 0] += 1
                    }
                }
            }
        }
        var out = ["missed taught strokes, score − threshold (sorted):"]
        for (shape, d) in missed.sorted(by: { $0.key < $1.key }) {
            out.append("  \(shape) (\(d.count)): " + d.sorted().map { DecimalText.string($0, places: 3) }.joined(separator: " "))
        }
        out.append("false reports (held-out person, stroke's shape → reported: count over the draws):")
        for (k, n) in falses.sorted(by: { ($0.value, $1.key) > ($1.value, $0.key) }) { out.append("  \(k): \(n)") }
        return out
    }

    /// Draw d over every held-out person.
    public func draw(_ d: Int, _ path: KeyPath<HeldOut, [Tally]>) -> Tally {
        heldOut.reduce(Tally()) { $0 + $1[keyPath: path][d] }
    }
}

private func text(_ x: Double) -> String { DecimalText.string(x, places: 3) }

extension String {
    /// FNV-1a of the UTF-8 bytes: the same on every run (Hasher is seeded per process).
    var hashValueStable: UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in utf8 {
            h ^= UInt64(b)
            h = h &* 0x100_0000_01b3
        }
        return h
    }
}
