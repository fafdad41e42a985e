/// How often the strokes of each subject and shape were reported as each answer ("circle",
/// "checkmark", a taught shape's name …): the counts every accuracy figure is computed from.
/// An answer counts at most once per stroke.
public struct Confusion: Sendable {
    public struct Key: Hashable, Sendable {
        public var subject: String
        public var shape: String
    }

    public private(set) var strokes: [Key: Int] = [:]
    public private(set) var answers: [Key: [String: Int]] = [:]

    public init() {}

    /// Records one stroke and the distinct answers given for it.
    public mutating func add(_ stroke: CorpusStroke, answers given: some Sequence<String>) {
        let key = Key(subject: stroke.subject, shape: stroke.shape)
        strokes[key, default: 0] += 1
        for answer in Set(given) { answers[key, default: [:]][answer, default: 0] += 1 }
    }

    /// A count out of a total, printed as `hits/total (rate %)`.
    public struct Rate: Sendable, CustomStringConvertible {
        public var hits: Int
        public var total: Int
        public var value: Double { total == 0 ? 0 : Double(hits) / Double(total) }
        public var description: String {
            let tenths = total == 0 ? 0 : (hits * 10000 + total / 2) / total
            return "\(hits)/\(total) (\(tenths / 100).\(tenths % 100 < 10 ? "0" : "")\(tenths % 100) %)"
        }
    }

    /// Strokes of `shapes` by `subjects` (nil: everyone) that were answered `answer`.
    public func rate(_ answer: String, shapes: (String) -> Bool, subjects: Set<String>? = nil) -> Rate {
        var r = Rate(hits: 0, total: 0)
        for (key, n) in strokes where shapes(key.shape) && subjects.map({ $0.contains(key.subject) }) ?? true {
            r.total += n
            r.hits += answers[key]?[answer] ?? 0
        }
        return r
    }

    /// True positives: strokes of `shape` answered `answer`.
    public func truePositives(_ answer: String, shape: String, subjects: Set<String>? = nil) -> Rate {
        rate(answer, shapes: { $0 == shape }, subjects: subjects)
    }

    /// False positives: strokes of every other shape answered `answer`.
    public func falsePositives(_ answer: String, shape: String, subjects: Set<String>? = nil) -> Rate {
        rate(answer, shapes: { $0 != shape }, subjects: subjects)
    }

    /// The shapes answered `answer` and how often, most frequent first: where mistakes come from.
    public func confusedShapes(_ answer: String, besides shape: String, subjects: Set<String>? = nil) -> [(shape: String, count: Int)] {
        var counts: [String: Int] = [:]
        for (key, given) in answers where key.shape != shape && subjects.map({ $0.contains(key.subject) }) ?? true {
            if let n = given[answer], n > 0 { counts[key.shape, default: 0] += n }
        }
        return counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map { ($0.key, $0.value) }
    }
}
