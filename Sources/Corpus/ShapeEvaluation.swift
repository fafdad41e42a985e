import GestureKit

/// Circle, checkmark and tickle over the corpus, leave-one-subject-out: each person's strokes
/// are answered by recognizers whose fitted parts (the checkmark's score) were fitted on the
/// other four; and, for comparison, every stroke by recognizers fitted on all five (what ships).
/// The circle and tickle have no fitted parts: their thresholds are fixed in the code.
public struct ShapeEvaluation: Sendable {
    public var subjects: [String]
    public var heldOut = Confusion()
    public var allFive = Confusion()
    public var fittedOnAll: CheckmarkModel
    public var fittedWithout: [String: CheckmarkModel] = [:]

    /// The shape gestures measured and the corpus shape each should find (tickle: none of them).
    public static let targets: [(answer: String, shape: String)] = [("circle", "circle"), ("checkmark", "check"), ("tickle", "")]

    public static func run(_ corpus: UnistrokeCorpus) -> ShapeEvaluation {
        let examples = CheckmarkTraining.examples(corpus.strokes)
        var e = ShapeEvaluation(subjects: corpus.subjects, fittedOnAll: CheckmarkTraining.fit(examples))
        for s in e.subjects {
            let model = CheckmarkTraining.fit(examples.filter { $0.subject != s })
            e.fittedWithout[s] = model
            answer(corpus.strokes.filter { $0.subject == s }, model: model, into: &e.heldOut)
        }
        answer(corpus.strokes, model: e.fittedOnAll, into: &e.allFive)
        return e
    }

    static func answer(_ strokes: [CorpusStroke], model: CheckmarkModel, into confusion: inout Confusion) {
        var rules = CheckmarkRules()
        rules.model = model
        let recognizers: [any GestureRecognizer] = [CircleRecognizer(), CheckmarkRecognizer(rules: rules), TickleRecognizer()]
        for stroke in strokes {
            confusion.add(stroke, answers: stroke.play(into: recognizers).map(\.kind.rawValue))
        }
    }
}
