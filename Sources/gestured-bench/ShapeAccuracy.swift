import Corpus
import GestureKit

/// The tables `gestured-bench accuracy` prints (docs/recognition.md).
enum ShapeAccuracy {
    static func report(_ e: ShapeEvaluation) -> String {
        var lines = ["Leave-one-subject-out: each person answered by recognizers fitted on the other four.", ""]
        for (answer, shape) in ShapeEvaluation.targets {
            lines.append("\(answer):")
            for s in e.subjects { lines.append(row(s, answer, shape, e.heldOut, [s])) }
            lines.append(row("held out, all", answer, shape, e.heldOut, Set(e.subjects)))
            lines.append(row("fitted on all five", answer, shape, e.allFive, Set(e.subjects)))
        }
        lines.append("")
        lines.append("checkmark score fitted on all five: " + literal(e.fittedOnAll))
        for s in e.subjects {
            if let m = e.fittedWithout[s] { lines.append("  without \(s): " + literal(m)) }
        }
        return lines.joined(separator: "\n")
    }

    static func row(_ name: String, _ answer: String, _ shape: String, _ c: Confusion, _ group: Set<String>) -> String {
        let tp = shape.isEmpty ? "" : "found \(c.truePositives(answer, shape: shape, subjects: group))  "
        let fp = c.falsePositives(answer, shape: shape, subjects: group)
        let worst = c.confusedShapes(answer, besides: shape, subjects: group).prefix(3).map { "\($0.shape) \($0.count)" }
        return "  \(name): \(tp)mistaken \(fp)" + (worst.isEmpty ? "" : "  [\(worst.joined(separator: ", "))]")
    }

    /// The model as Swift source, for CheckmarkModel.standard.
    static func literal(_ m: CheckmarkModel) -> String {
        "CheckmarkModel(bias: \(m.bias), weights: CheckmarkFeatures([\(m.weights.values.map { "\($0)" }.joined(separator: ", "))]))"
    }
}
