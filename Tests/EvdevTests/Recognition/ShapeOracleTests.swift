@testable import Corpus
import GestureKit
import Testing

/// The oracle bound (ShapeOracle, `gestured-bench strangers --oracle`): the split of the false
/// budget is the best one, no set of thresholds beats the thresholds-only bound, and the
/// best-only figure is what its thresholds achieve.
@Suite struct ShapeOracleTests {
    /// Strokes with random scores in 0.8…1 for the taught shapes, a third untaught.
    static func strokes(_ count: Int, _ rng: inout SeededRandom) -> [NestedShapeAccuracy.Scored] {
        let names = TaughtShapeAccuracy.taught
        return (0..<count).map { _ in
            let truth = Int(rng.next() % UInt64(names.count + 4))
            let shape = truth < names.count ? names[truth] : "left_sq_bracket"
            let scores = names.map { n in (shape: n, score: 0.8 + 0.2 * Double(rng.next() % 1000) / 1000 + (n == shape ? 0.03 : 0)) }
            return NestedShapeAccuracy.Scored(TaughtShapeAccuracy.Trial(subject: "s09", shape: shape, scores: scores))
        }
    }

    /// Every way of spending up to the budget on three items, against the knapsack.
    @Test func theBudgetIsSpentWhereItBuysTheMost() {
        var rng = SeededRandom(seed: 39)
        for _ in 0..<50 {
            let budget = 4
            let items: [[Int]] = (0..<3).map { _ in
                var v = [Int(rng.next() % 5)]
                for _ in 0..<budget { v.append(v[v.count - 1] + Int(rng.next() % 4)) }
                return v
            }
            var best = 0
            for a in 0...budget { for b in 0...(budget - a) { for c in 0...(budget - a - b) { best = max(best, items[0][a] + items[1][b] + items[2][c]) } } }
            let (total, spend) = ShapeOracle.allocate(items, budget: budget)
            #expect(total == best && spend.reduce(0, +) <= budget)
            #expect(zip(items, spend).map { $0[$1] }.reduce(0, +) == total)
        }
    }

    /// Random thresholds, raised over false reports until within the false budget, never
    /// recognize more than the bound; the best-only thresholds the oracle picks achieve its
    /// figure within the budget.
    @Test func noThresholdsBeatTheBound() {
        var rng = SeededRandom(seed: 7)
        let trials = Self.strokes(300, &rng), n = TaughtShapeAccuracy.taught.count, budget = 3
        let plain = ShapeOracle.curves(trials, margin: 0, budget: budget)
        let bound = ShapeOracle.allocate(plain.map(\.value), budget: budget).total
        var most = 0
        for _ in 0..<300 {
            var thresholds = (0..<n).map { _ in 0.8 + 0.23 * Double(rng.next() % 1000) / 1000 }
            while true {
                let t = NestedShapeAccuracy.tally(trials, thresholds: thresholds)
                guard t.falses > budget else {
                    most = max(most, t.hits.reduce(0, +))
                    break
                }
                // Raise the threshold of a shape falsely reported just over that stroke's score.
                let s = trials.first { let r = NestedShapeAccuracy.reported($0, thresholds); return r >= 0 && r != $0.truth }!
                let r = NestedShapeAccuracy.reported(s, thresholds)
                thresholds[r] = s.score[r] + 1e-9
            }
        }
        #expect(most <= bound && most > 0, "\(most) recognized within the budget, bound \(bound)")

        let bestOnly = ShapeOracle.curves(trials, margin: ShapeOracle.margins[0], budget: budget)
        let (total, spend) = ShapeOracle.allocate(bestOnly.map(\.value), budget: budget)
        let thresholds = (0..<n).map { bestOnly[$0].threshold[spend[$0]] }
        var hits = 0, falses = 0
        for s in trials {
            let top = s.score.indices.max { s.score[$0] < s.score[$1] }!
            guard s.score[top] >= thresholds[top] else { continue }
            if top == s.truth { hits += 1 } else { falses += 1 }
        }
        #expect(hits == total && falses <= budget && total <= bound && total > 0)
    }
}
