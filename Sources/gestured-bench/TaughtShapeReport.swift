import Corpus
import GestureKit

extension TaughtShapeAccuracy {
    /// The tables of docs/recognition.md.
    func report(k: Int, repetitions: Int, seed: UInt64, draws: Int) -> String {
        let open = UnistrokeCorpus.shapes.filter { !Self.taught.contains($0) }
        var lines = [
            "taught: \(Self.taught.joined(separator: ", "))",
            "open set (must be rejected): \(open.joined(separator: ", "))",
            "strokes: \(samples.count), subjects: \(subjects.joined(separator: ", "))",
            "default threshold: \(pct(TaughtShape.defaultThreshold, digits: 3))",
            "",
        ]
        let protocols: [(String, [Trial])] = [
            ("own shape: K = \(k) strokes of one person per shape, tested on all that person's other strokes, \(repetitions) draws",
             ownShape(k: k, repetitions: repetitions, seed: seed)),
            ("anyone's: every stroke of four people teaches, the fifth is tested, each in turn",
             anyone(perPerson: nil, seed: seed)),
            ("anyone's, \(k) strokes of each of the four people per shape (\(4 * k) examples)",
             anyone(perPerson: k, seed: seed)),
        ]
        // The $1 baseline (path distance, no rotation search), at its best threshold for FPR ≤ 0.5 %
        // on the very tests (a flattering choice, for comparison only).
        let baselines: [(String, [Trial])] = [
            ("own shape", ownShape(k: k, repetitions: repetitions, seed: seed, method: .pathDistance)),
            ("anyone's", anyone(perPerson: nil, seed: seed, method: .pathDistance)),
        ]
        for (title, trials) in baselines {
            let t = Self.threshold(trials, maxFPR: 0.005)
            lines.append("$1 path distance (no rotation), \(title), best threshold for FPR ≤ 0.5 % (\(pct(t, digits: 3))): " + describe(Self.rates(trials, threshold: t)))
        }
        lines.append("")
        lines += calibratedReport(repetitions: repetitions, seed: seed, draws: draws)
        for (title, trials) in protocols {
            lines.append(title + " (\(trials.count) tests):")
            lines.append("  default threshold:       " + describe(Self.rates(trials, threshold: TaughtShape.defaultThreshold)))
            let (loso, thresholds) = Self.leaveOneSubjectOut(trials, subjects: subjects, maxFPR: 0.0025)
            lines.append("  threshold chosen leave-one-subject-out (FPR ≤ 0.25 % on the other four: "
                         + thresholds.map { pct($0, digits: 3) }.joined(separator: " ") + "): " + describe(loso))
            let oracle = Self.threshold(trials, maxFPR: 0.005)
            lines.append("  for comparison, the best threshold for FPR ≤ 0.5 % on these very tests (\(pct(oracle, digits: 3))): "
                         + describe(Self.rates(trials, threshold: oracle)))
            for s in subjects {
                lines.append("    \(s): " + describe(Self.rates(trials.filter { $0.subject == s }, threshold: TaughtShape.defaultThreshold)))
            }
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }

    /// The targets with calibrated thresholds (ShapeCalibration), no threshold set by hand, over
    /// `draws` random draws of the examples (seeds seed, seed + 1, …): judged on the mean.
    private func calibratedReport(repetitions: Int, seed: UInt64, draws: Int) -> [String] {
        let maxFPR = 0.005
        let targets: [(title: String, tpr: Double, trials: (UInt64) -> [Trial])] = [
            ("user-dependent: K = 5 of the person's own strokes per shape, tested on their other strokes", 0.98,
             { ownShape(k: 5, repetitions: repetitions, seed: $0, calibrated: true) }),
            ("user-independent: K = 10 random strokes per shape of the other four, tested on all the person's strokes", 0.96,
             { otherPeople(k: 10, repetitions: repetitions, seed: $0, calibrated: true) }),
        ]
        var lines = ["calibrated thresholds (ShapeCalibration, floor \(pct(ShapeCalibration.floor, digits: 3)), margin \(pct(ShapeCalibration.margin, digits: 3)), "
                     + "turning exponent \(pct(turningExponent, digits: 2))), \(repetitions) draws per person and seed, seeds \(seed)–\(seed + UInt64(max(draws, 1)) - 1):"]
        var verdicts: [String] = []
        for (title, tpr, make) in targets {
            lines.append("  " + title + "; target TPR ≥ \(pct(tpr * 100, digits: 0)) % at FPR ≤ 0.5 %:")
            var held: [Rates] = []
            for d in 0..<max(draws, 1) {
                let s = seed + UInt64(d)
                let trials = make(s)
                let (loso, floors) = Self.calibratedLeaveOneSubjectOut(trials, subjects: subjects, maxFPR: maxFPR / 2)
                held.append(loso)
                lines.append("    seed \(s) (\(trials.count) tests): floor chosen leave-one-subject-out (FPR ≤ 0.25 % on the other four: "
                             + floors.map { pct($0, digits: 3) }.joined(separator: " ") + "): " + describe(loso))
                if d == 0 {
                    lines.append("      fixed \(pct(TaughtShape.defaultThreshold, digits: 3)): " + describe(Self.rates(trials, threshold: TaughtShape.defaultThreshold))
                                 + "; shipped floor: " + describe(Self.rates(trials, floor: ShapeCalibration.floor)))
                }
            }
            let over = OverDraws(held)
            let met = over.meets(tpr: tpr, maxFPR: maxFPR)
            let summary = "mean over \(held.count) seeds: TPR \(pct(over.meanTPR * 100, digits: 2)) % (\(range(over.tprRange))), "
                + "FPR \(pct(over.meanFPR * 100, digits: 2)) % (\(range(over.fprRange)))"
            lines.append("    " + summary + (met ? "  target met" : "  TARGET NOT MET"))
            verdicts.append("  \(title.prefix { $0 != ":" }): " + summary + (met ? "  target met" : "  TARGET NOT MET"))
        }
        // Many examples: the floor rises with their number (ShapeCalibration.floor(examples:)).
        let many = anyone(perPerson: nil, seed: seed, calibrated: true)
        let floor = ShapeCalibration.floor(examples: 120)
        lines.append("  anyone's, every stroke of four people teaches (120 per shape; floor \(pct(floor, digits: 3))), the fifth is tested: calibrated "
                     + describe(Self.rates(many, floor: floor)))
        lines.append("targets (held out, judged on the mean over seeds, range in brackets):")
        lines += verdicts
        lines.append("")
        return lines
    }

    private func range(_ r: ClosedRange<Double>) -> String { "\(pct(r.lowerBound * 100, digits: 2))–\(pct(r.upperBound * 100, digits: 2))" }

    private func describe(_ r: Rates) -> String {
        "TPR \(pct(r.tpr * 100, digits: 2)) %, FPR \(pct(r.fpr * 100, digits: 2)) %, untaught accepted \(pct(r.openSetAccepted * 100, digits: 2)) %"
    }

    private func pct(_ x: Double, digits: Int) -> String { DecimalText.string(x, places: digits, padded: true) }
}
