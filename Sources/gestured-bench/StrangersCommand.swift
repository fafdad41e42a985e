import ArgumentParser
import Corpus
import GestureKit

/// `gestured-bench strangers`: taught shapes drawn by people who taught nothing, nested
/// leave-one-subject-out (NestedShapeAccuracy; docs/recognition.md): per held-out person, draw
/// and shape, the worst draw beside the mean.
struct StrangersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "strangers",
        abstract: "Taught shapes drawn by people who taught nothing: nested leave-one-subject-out, per draw and per shape.")

    @OptionGroup var corpus: CorpusOption

    @Option(help: "Examples per shape, drawn at random from the other people's strokes.")
    var k = 10

    @Option(help: "Teach each shape with this many random strokes of each teacher, each example naming its teacher, instead of --k pooled.")
    var perTeacher: Int?

    @Option(help: "Random draws of those examples per held-out person.")
    var draws = 5

    @Option(help: "Draws per inner person when the settings are chosen.")
    var innerDraws = 3

    @Option(help: "Seed of the random draws.")
    var seed: UInt64 = 1

    @Flag(help: "Also list the missed strokes' scores and every false report.")
    var explain = false

    @Flag(help: "Also print the oracle bound: the best thresholds chosen on the held-out person's own test strokes (an upper bound, not a result).")
    var oracle = false

    func run() throws {
        let a = TaughtShapeAccuracy(corpus: try corpus.load())
        let n = NestedShapeAccuracy.run(a, k: k, perTeacher: perTeacher, draws: draws, innerDraws: innerDraws, seed: seed)
        print(StrangersReport.text(n, taught: perTeacher.map { "\($0) random strokes per shape of each" } ?? "\(k) random strokes per shape"))
        if explain { print(n.explain().joined(separator: "\n")) }
        if oracle { print(StrangersReport.oracle(ShapeOracle(n), subjects: n.heldOut.map(\.subject))) }
    }
}

/// The tables `gestured-bench strangers` prints.
enum StrangersReport {
    static let targets = (drawn: 0.96, shape: 0.90, falses: 0.005, own: 0.97)

    /// `taught`: how the shapes are taught, "… of the remaining three" and "… of the four" following.
    static func text(_ n: NestedShapeAccuracy, taught: String) -> String {
        var lines = [
            "Nested leave-one-subject-out: for each held-out person the calibration's constants are chosen on the other four",
            "(each in turn tested, taught by \(taught) of the remaining three; false reports ≤ 0.25 % there and",
            "on their own shapes); the held-out person is tested once per draw, taught by \(taught) of the four.",
            "",
            "chosen per held-out person (inner recognized / false):",
        ]
        for h in n.heldOut {
            lines.append("  \(h.subject): \(h.chosen)  (\(pct(h.inner.recognized)) / \(pct(h.inner.falseRate)));  rule before: \(h.chosenBefore)")
        }
        if let (s, t) = n.allFive {
            lines.append("  chosen on all five (shipped, not a held-out figure): \(s)  (\(pct(t.recognized)) / \(pct(t.falseRate)))")
        }
        let rows: [(String, KeyPath<NestedShapeAccuracy.HeldOut, [NestedShapeAccuracy.Tally]>)] = [
            ("held out, chosen on the other four", \.draws),
            ("rule before issue 39 (one floor), chosen on the other four", \.drawsBefore),
            ("shipped constants (chosen on all five: for comparison, not held out)", \.drawsShipped),
        ]
        var verdicts: [String] = []
        for (title, path) in rows { draws(n, title: title, path, lines: &lines, verdicts: &verdicts) }
        ownShape(n, lines: &lines, verdicts: &verdicts)
        lines.append("")
        lines.append("targets (worst draw, worst shape, highest false rate over the draws):")
        lines += verdicts
        return lines.joined(separator: "\n")
    }

    /// One table of draws (`path` of each held-out person), and its verdict.
    private static func draws(_ n: NestedShapeAccuracy, title: String,
                              _ path: KeyPath<NestedShapeAccuracy.HeldOut, [NestedShapeAccuracy.Tally]>,
                              lines: inout [String], verdicts: inout [String]) {
        let names = TaughtShapeAccuracy.taught
        lines.append("")
        lines.append(title + ":")
        lines.append("  draw | recognized | false | " + names.joined(separator: " | "))
        var tallies: [NestedShapeAccuracy.Tally] = []
        for d in 0..<n.draws {
            let t = n.draw(d, path)
            tallies.append(t)
            lines.append("  \(d + 1) | \(count(t)) | \(falses(t)) | " + t.perShape.map(pct).joined(separator: " | "))
        }
        let worst = tallies.min { $0.recognized < $1.recognized } ?? .init()
        let mean = tallies.map(\.recognized).reduce(0, +) / Double(max(tallies.count, 1))
        let meanFalse = tallies.map(\.falseRate).reduce(0, +) / Double(max(tallies.count, 1))
        let shapeWorst = names.indices.map { i in tallies.map { $0.perShape[i] }.min() ?? 0 }
        let shapeMean = names.indices.map { i in tallies.map { $0.perShape[i] }.reduce(0, +) / Double(max(tallies.count, 1)) }
        lines.append("  mean | \(pct(mean)) | \(pct(meanFalse)) | " + shapeMean.map(pct).joined(separator: " | "))
        lines.append("  worst | \(pct(worst.recognized)) | \(pct(tallies.map(\.falseRate).max() ?? 0)) | " + shapeWorst.map(pct).joined(separator: " | "))
        lines.append("  per held-out person, recognized per draw (false per draw):")
        for h in n.heldOut {
            let path = h[keyPath: path]
            // In parts: Swift 6.0 (Debian 13) gives up type-checking the one expression.
            let recognized: String = path.map { pct($0.recognized) }.joined(separator: " ")
            let falses: String = path.map { pct($0.falseRate) }.joined(separator: " ")
            let weakest: String = worstShape(path.reduce(.init(), +))
            lines.append("    \(h.subject): \(recognized)  (\(falses))  worst shape \(weakest)")
        }
        let met = (tallies.map(\.recognized).min() ?? 0) >= targets.drawn && shapeWorst.allSatisfy { $0 >= targets.shape }
            && (tallies.map(\.falseRate).max() ?? 1) <= targets.falses
        verdicts.append("  \(title): every draw ≥ 96 %: \(pct(worst.recognized)); every shape ≥ 90 %: \(pct(shapeWorst.min() ?? 0)) ("
                        + "\(names[shapeWorst.indices.min { shapeWorst[$0] < shapeWorst[$1] } ?? 0])); false ≤ 0.5 %: \(pct(tallies.map(\.falseRate).max() ?? 0))"
                        + (met ? "  met" : "  NOT MET"))
    }

    /// Each person's own shape, and its verdict.
    private static func ownShape(_ n: NestedShapeAccuracy, lines: inout [String], verdicts: inout [String]) {
        lines.append("")
        lines.append("own shape (\(n.heldOut.first.map { $0.own.tests } ?? 0) tests per person; K = 5 of their own strokes), chosen on the other four / rule before:")
        var own = NestedShapeAccuracy.Tally(), ownBefore = NestedShapeAccuracy.Tally()
        for h in n.heldOut {
            own = own + h.own
            ownBefore = ownBefore + h.ownBefore
            lines.append("  \(h.subject): \(count(h.own)), false \(falses(h.own))  /  \(pct(h.ownBefore.recognized)), false \(pct(h.ownBefore.falseRate))")
        }
        lines.append("  all: \(count(own)), false \(falses(own))  /  \(pct(ownBefore.recognized)), false \(pct(ownBefore.falseRate))")
        verdicts.append("  own shape ≥ 97 % at false ≤ 0.5 %: \(pct(own.recognized)), false \(pct(own.falseRate))"
                        + (own.recognized >= targets.own && own.falseRate <= targets.falses ? "  met" : "  NOT MET"))
    }

    static func oracle(_ o: ShapeOracle, subjects: [String]) -> String {
        let names = TaughtShapeAccuracy.taught
        var lines = [
            "",
            "ORACLE BOUND (an upper bound, not a result): per held-out person and draw, each shape's threshold chosen looking at",
            "that person's own test strokes, false reports of the draw ≤ 0.5 % of its tests, spent where they buy the most.",
            "bound: an upper bound on any threshold rule with these scores (per person and shape); exact: achieved by the rule",
            "named (best only: the best shape reported only if it reaches its threshold; + margin: and leads the next by the",
            "oracle's margin). alone: the whole budget spent on that shape; joint: the most strokes overall.",
            "  draw | budget | rule | recognized | " + names.joined(separator: " | "),
        ]
        func row(_ d: Int, _ draw: ShapeOracle.Draw, _ rule: String, _ hits: [Int]) -> String {
            let all = hits.reduce(0, +), positives = draw.positives.reduce(0, +)
            let overall: String = rule.hasSuffix("alone") ? "-" : pct(Double(all) / Double(max(positives, 1))) + " (\(all)/\(positives))"
            let perShape: [String] = zip(hits, draw.positives).map { (h: Int, p: Int) -> String in pct(Double(h) / Double(max(p, 1))) }
            return "  \(d + 1) | \(draw.budget) of \(draw.tests) | \(rule) | \(overall) | " + perShape.joined(separator: " | ")
        }
        for (d, draw) in o.draws.enumerated() {
            lines.append(row(d, draw, "per person, thresholds: bound, joint", draw.joint))
            lines.append(row(d, draw, "per person, thresholds: bound, alone", draw.alone))
            lines.append(row(d, draw, "per person, best only + margin: exact, joint", draw.jointMargin))
            lines.append(row(d, draw, "shared by the people, best only: exact, joint", draw.shared))
            lines.append(row(d, draw, "one threshold \(DecimalText.string(draw.singleThreshold, places: 3)): exact", draw.single))
        }
        lines.append("per held-out person's teaching, the bound's threshold (joint) / the nested choice's, per draw:")
        for shape in ["arrow", "left_curly_brace"] {
            guard let i = names.firstIndex(of: shape) else { continue }
            for (p, subject) in subjects.enumerated() {
                let pairs = o.draws.map { d -> String in
                    let t = d.oracleThresholds[p][i]
                    return (t.isFinite ? DecimalText.string(t, places: 3) : "none") + "/" + DecimalText.string(d.chosenThresholds[p][i], places: 3)
                }
                lines.append("  \(shape) \(subject): " + pairs.joined(separator: " "))
            }
        }
        return lines.joined(separator: "\n")
    }

    static func worstShape(_ t: NestedShapeAccuracy.Tally) -> String {
        let per = t.perShape
        guard let i = per.indices.min(by: { per[$0] < per[$1] }) else { return "-" }
        return "\(TaughtShapeAccuracy.taught[i]) \(t.hits[i])/\(t.positives[i])"
    }

    static func count(_ t: NestedShapeAccuracy.Tally) -> String {
        "\(pct(t.recognized)) (\(t.hits.reduce(0, +))/\(t.positives.reduce(0, +)))"
    }

    static func falses(_ t: NestedShapeAccuracy.Tally) -> String { "\(pct(t.falseRate)) (\(t.falses)/\(t.tests))" }

    static func pct(_ x: Double) -> String { DecimalText.string(x * 100, places: 2, padded: true) + " %" }
}
