/// What the best threshold rule could do with the matching's scores, looking at the held-out
/// person's own test strokes: an **oracle**, an upper bound — not a result (issue 39). If even it
/// cannot reach a target at the false-report budget, no threshold (calibrated, per person, per
/// prototype) can: only the matching, what the score sees, can.
///
/// Per draw of NestedShapeAccuracy, each held-out person (taught by their own draw's examples)
/// gets per shape the threshold that the oracle likes best; the false reports of the five people
/// together stay within the budget (⌊0.5 % × tests⌋ of the draw), spent where it buys the most.
///
/// - Thresholds only: a stroke whose best shape j is not its own is a false report whenever j's
///   threshold lets it through (it is then reported, being the best); a stroke of shape i can be
///   recognized only if it reaches i's threshold. Counting only those false reports and every
///   such chance of recognition makes the shapes independent (a knapsack), and the figure an upper
///   bound on any set of thresholds under ShapeMatcher's rule (best shape reaching its threshold).
/// - One threshold per shape shared by the held-out people, best shape only (exact); one
///   threshold for everything under ShapeMatcher's rule (exact): what the oracle keeps when it
///   may not tell the people apart.
/// - Threshold + runner-up margin (the rule tried in issue 39, tag i39-tried: rejected if another
///   taught shape scores within the margin of the reported one): with any margin above zero only
///   the best shape can be reported, so the count is exact; the margin is the oracle's too, per
///   person and draw, from `margins`.
public struct ShapeOracle: Sendable {
    /// One draw over the held-out people.
    public struct Draw: Sendable {
        /// Per taught shape (TaughtShapeAccuracy.taught order), its tested strokes.
        public var positives: [Int]
        public var tests: Int
        /// False reports allowed.
        public var budget: Int
        /// Per shape, the most recognized with the whole budget spent on that shape alone.
        public var alone: [Int] = []
        /// Per shape, recognized where the most strokes overall are.
        public var joint: [Int] = []
        public var jointMargin: [Int] = []
        /// Per held-out person (NestedShapeAccuracy's order) and shape: the bound's threshold
        /// (joint; ∞: none) and the one the nested choice gave that person's teaching.
        public var oracleThresholds: [[Double]] = []
        public var chosenThresholds: [[Double]] = []
        /// Best shape only, per shape one threshold shared by the held-out people (exact).
        public var shared: [Int] = []
        /// One threshold for every shape and person, ShapeMatcher's rule (exact), and its value.
        public var single: [Int] = []
        public var singleThreshold = Double.infinity
    }

    /// Runner-up margins the oracle chooses among (above zero: the best shape only).
    public static let margins = [1e-9, 0.01, 0.02, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3]

    public var draws: [Draw] = []

    public init(_ n: NestedShapeAccuracy, maxFalse: Double = 0.005, margins: [Double] = ShapeOracle.margins) {
        let shapes = TaughtShapeAccuracy.taught.indices
        for d in 0..<n.draws {
            let people = n.heldOut.map { $0.trials[d] }
            var draw = Draw(positives: shapes.map { i in people.joined().filter { $0.truth == i }.count },
                            tests: people.map(\.count).reduce(0, +), budget: 0)
            draw.budget = Int(maxFalse * Double(draw.tests) + 1e-9)
            let b = draw.budget
            let plain = people.map { Self.curves($0, margin: 0, budget: b) }
            let margined = people.map { t in margins.map { Self.curves(t, margin: $0, budget: b) } }

            draw.alone = shapes.map { i in Self.allocate(plain.map { $0[i].value }, budget: b).total }

            // Thresholds only: every (person, shape) an item.
            let items = plain.flatMap { $0 }
            let spend = Self.allocate(items.map(\.value), budget: b).spend
            draw.joint = shapes.map { i in plain.indices.map { p in plain[p][i].value[spend[p * shapes.count + i]] }.reduce(0, +) }
            draw.oracleThresholds = plain.indices.map { p in shapes.map { plain[p][$0].threshold[spend[p * shapes.count + $0]] } }
            draw.chosenThresholds = n.heldOut.map { h in
                h.trials[d].first.map { NestedShapeAccuracy.thresholds($0, h.chosen) } ?? []
            }
            let pooled = Self.curves(Array(people.joined()), margin: margins[0], budget: b)
            let pooledSpend = Self.allocate(pooled.map(\.value), budget: b).spend
            draw.shared = shapes.map { pooled[$0].value[pooledSpend[$0]] }
            var single = NestedShapeAccuracy.Tally()
            for step in stride(from: 990, through: 800, by: -1) {
                let t = Double(step) / 1000
                let tally = people.reduce(NestedShapeAccuracy.Tally()) {
                    $0 + NestedShapeAccuracy.tally($1, thresholds: Array(repeating: t, count: shapes.count))
                }
                guard tally.falses <= b else { break }
                single = tally
                draw.singleThreshold = t
            }
            draw.single = single.hits

            // With a margin: per person and false count, the best margin's split over the shapes.
            let perPerson: [[[Int]]] = margined.map { m in
                (0...b).map { c in
                    m.map { curves in
                        let s = Self.allocate(curves.map(\.value), budget: c).spend
                        return shapes.map { curves[$0].value[s[$0]] }
                    }.max { $0.reduce(0, +) < $1.reduce(0, +) } ?? []
                }
            }
            let personSpend = Self.allocate(perPerson.map { $0.map { $0.reduce(0, +) } }, budget: b).spend
            draw.jointMargin = shapes.map { i in perPerson.indices.map { perPerson[$0][personSpend[$0]][i] }.reduce(0, +) }
            draws.append(draw)
        }
    }

    /// Per false count c ≤ budget, the most strokes of one shape one threshold recognizes with at
    /// most c false reports certain (see the type), and that threshold (∞: none).
    struct Curve {
        var value: [Int]
        var threshold: [Double]
    }

    /// Each taught shape's curve over one person's tested strokes. margin 0: thresholds only (a
    /// bound); above 0: the best shape only, reported if it leads the next by at least `margin`.
    static func curves(_ trials: [NestedShapeAccuracy.Scored], margin: Double, budget: Int) -> [Curve] {
        let n = TaughtShapeAccuracy.taught.count
        var mine = Array(repeating: [Double](), count: n), others = Array(repeating: [Double](), count: n)
        for s in trials {
            let order = s.score.indices.sorted { s.score[$0] > s.score[$1] }
            let top = order[0]
            if margin > 0 {
                guard s.score[top] - s.score[order[1]] >= margin else { continue }
                if top == s.truth { mine[top].append(s.score[top]) } else { others[top].append(s.score[top]) }
            } else {
                if s.truth >= 0 { mine[s.truth].append(s.score[s.truth]) }
                if top != s.truth { others[top].append(s.score[top]) }
            }
        }
        return (0..<n).map { i in
            var curve = Curve(value: Array(repeating: 0, count: budget + 1), threshold: Array(repeating: .infinity, count: budget + 1))
            for t in Set(mine[i]) {
                let found = mine[i].filter { $0 >= t }.count, falses = others[i].filter { $0 >= t }.count
                guard falses <= budget else { continue }
                for c in falses...budget where found > curve.value[c] {
                    curve.value[c] = found
                    curve.threshold[c] = t
                }
            }
            return curve
        }
    }

    /// The most total value from items whose value rises with what is spent on them (values[c]:
    /// spending c), spending at most `budget` in all, and what each item gets.
    static func allocate(_ values: [[Int]], budget: Int) -> (total: Int, spend: [Int]) {
        // best[j][c]: the most from the first j items spending at most c; pick[j][c]: item j−1's spend.
        var best = [Array(repeating: 0, count: budget + 1)]
        var pick: [[Int]] = [[]]
        for v in values {
            let last = best[best.count - 1]
            var row = Array(repeating: Int.min, count: budget + 1), choice = Array(repeating: 0, count: budget + 1)
            for c in 0...budget {
                for s in 0...c where last[c - s] + v[s] > row[c] {
                    row[c] = last[c - s] + v[s]
                    choice[c] = s
                }
            }
            best.append(row)
            pick.append(choice)
        }
        var spend = Array(repeating: 0, count: values.count), c = budget
        for j in stride(from: values.count, to: 0, by: -1) {
            spend[j - 1] = pick[j][c]
            c -= pick[j][c]
        }
        return (best[values.count][budget], spend)
    }
}
