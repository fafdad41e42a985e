import Corpus
import GestureKit

/// Circle, checkmark and tickle over the corpus: for each subject, the strokes it drew as the
/// default recognizers answer them.
struct ShapeAccuracy {
    /// The shape gestures measured and the corpus shape each one should find (tickle: none).
    static let targets: [(answer: String, shape: String)] = [("circle", "circle"), ("checkmark", "check"), ("tickle", "")]

    var subjects: [String]
    var confusion: Confusion

    static func evaluate(_ corpus: UnistrokeCorpus) -> ShapeAccuracy {
        var confusion = Confusion()
        let recognizers: [any GestureRecognizer] = [CircleRecognizer(), CheckmarkRecognizer(), TickleRecognizer()]
        for stroke in corpus.strokes {
            confusion.add(stroke, answers: stroke.play(into: recognizers).map(\.kind.rawValue))
        }
        return ShapeAccuracy(subjects: corpus.subjects, confusion: confusion)
    }

    func report() -> String {
        var lines: [String] = []
        for (answer, shape) in Self.targets {
            lines.append("\(answer):")
            let groups = subjects.map { ($0, Set([$0])) } + [("all", Set(subjects))]
            for (name, group) in groups {
                let tp = shape.isEmpty ? "" : "found \(confusion.truePositives(answer, shape: shape, subjects: group))  "
                let fp = confusion.falsePositives(answer, shape: shape, subjects: group)
                let worst = confusion.confusedShapes(answer, besides: shape, subjects: group).prefix(3)
                    .map { "\($0.shape) \($0.count)" }.joined(separator: ", ")
                lines.append("  \(name): \(tp)mistaken \(fp)\(worst.isEmpty ? "" : "  [\(worst)]")")
            }
        }
        return lines.joined(separator: "\n")
    }
}
