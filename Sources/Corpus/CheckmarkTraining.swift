import GestureKit

/// Fits the checkmark's check-versus-v score (CheckmarkModel) on corpus strokes. The examples
/// are the strokes that pass the checkmark's shape gates, as the recognizer itself measures them
/// when the finger lifts; checks are the positives, everything else (in practice v's) negatives.
public enum CheckmarkTraining {
    public struct Example: Sendable {
        public var subject: String
        public var shape: String
        public var features: CheckmarkFeatures
        public var isCheck: Bool { shape == "check" }
    }

    /// The gate-passing strokes of `strokes` and their features.
    public static func examples(_ strokes: [CorpusStroke], rules: CheckmarkRules = CheckmarkRules()) -> [Example] {
        var gatesOnly = rules
        gatesOnly.minScore = -.infinity
        let recognizer = CheckmarkRecognizer(rules: gatesOnly)
        var out: [Example] = []
        var events: [GestureEvent] = []
        for stroke in strokes {
            for frame in stroke.frames { recognizer.handle(frame, events: &events) }
            if let a = recognizer.analysis, a.score != nil {
                out.append(Example(subject: stroke.subject, shape: stroke.shape, features: a.features))
            }
            recognizer.reset()
            events.removeAll(keepingCapacity: true)
        }
        return out
    }

    /// The penalty λ of the fit. Fixed a priori, not tuned: the features are standardized, and
    /// λ = 1 is one example's worth of pull towards zero among a few hundred.
    public static let penalty = 1.0

    public static func fit(_ examples: [Example]) -> CheckmarkModel {
        let f = LogisticRegression.fit(examples.map { $0.features.values }, examples.map(\.isCheck), penalty: penalty)
        return CheckmarkModel(bias: f.bias, weights: CheckmarkFeatures(f.weights))
    }
}
