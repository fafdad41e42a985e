/// What `learn` reports about a shape taught by several people: how alike they draw it, whose
/// examples stand apart, which other taught shape is closest and by how much, which built-in
/// shape takes its examples, and what to do.
///
/// A teacher's agreement is the median of their examples' best scores against the *other*
/// teachers' examples (leave one teacher out, ShapeCalibration.acrossByPerson): how a stranger
/// who draws the shape the way that teacher does would score if that teacher had taught nothing.
/// Below the floor a shape of one person's examples would get (ShapeCalibration.floor), more than
/// half of such strangers' strokes are found only through that teacher's own examples: that
/// teacher stands apart. The teachers also disagree when no one stands apart but their median
/// agreement lies within `agreementMargin` of the floor (a shape drawn in several ways by
/// several people, each way near the edge).
public struct TeacherReport: Sendable, Equatable {
    public struct Teacher: Sendable, Equatable {
        public var name: String
        public var examples: Int
        /// Median of their examples' best scores against the other teachers' examples.
        public var agreement: Double

        public init(name: String, examples: Int, agreement: Double) {
            self.name = name
            self.examples = examples
            self.agreement = agreement
        }
    }

    public var shape: String
    public var examples: Int
    /// Least agreement first.
    public var teachers: [Teacher]
    /// Examples whose person is not said.
    public var unnamed: Int
    public var threshold: Double
    /// Below this agreement a teacher stands apart (ShapeCalibration.floor for the examples).
    public var floor: Double
    /// The other shape's example scoring highest against this shape.
    public var nearest: ShapeCalibration.Score?
    /// Built-in recognizers that take some of its examples (BuiltInLookAlikes).
    public var builtIn: [BuiltInLookAlikes.Taken]

    /// Teachers whose median agreement lies within this of the floor disagree. Chosen looking at
    /// the tuning set (`gestured-bench teachers`, docs/recognition.md): taught by 5–10 strokes of
    /// each of the five people, the left brace's teachers agreed at 0.923–0.938, the arrow's at
    /// 0.948–0.956 and every other shape's at 0.958 or more — advice, not a measured figure.
    public static let agreementMargin = 0.045

    /// A nearest other shape within this of the threshold is named as a risk: two calibration
    /// margins, room for one person's strokes to wander past the margin.
    public static let closeness = 2 * ShapeCalibration.margin

    public init(shape: TaughtShape, calibration c: ShapeCalibration) {
        self.shape = shape.name
        examples = shape.examples.count
        unnamed = shape.examples.filter { $0.person.isEmpty }.count
        threshold = shape.threshold
        floor = ShapeCalibration.floor(examples: shape.examples.count)
        nearest = c.nearestOther
        builtIn = BuiltInLookAlikes.of(shape)
        var counts: [String: Int] = [:]
        for e in shape.examples where !e.person.isEmpty { counts[e.person, default: 0] += 1 }
        teachers = counts.map { name, n in
            Teacher(name: name, examples: n, agreement: c.acrossByPerson[name].map { ShapeCalibration.quantile($0.sorted(), 0.5) } ?? 1)
        }.sorted { ($0.agreement, $0.name) < ($1.agreement, $1.name) }
    }

    /// `shapes[index]`'s report, calibrated against the others.
    public init(_ index: Int, of shapes: [TaughtShape]) {
        self.init(shape: shapes[index], calibration: ShapeCalibration(index, of: shapes))
    }

    /// The teachers whose ways of drawing the shape the others' examples would mostly reject.
    /// With two teachers each is the other's only measure, so both stand apart or neither.
    public var apart: [Teacher] { teachers.count < 2 ? [] : teachers.filter { $0.agreement < floor } }
    public var teachersDisagree: Bool {
        guard let c = consistency else { return false }
        return !apart.isEmpty || c < floor + Self.agreementMargin
    }
    /// Median of the teachers' agreements (nil: fewer than two teachers).
    public var consistency: Double? {
        teachers.count < 2 ? nil : ShapeCalibration.quantile(teachers.map(\.agreement).sorted(), 0.5)
    }
    /// How far the nearest other shape's example lies below the threshold (negative: above it).
    public var nearestMargin: Double? { nearest.map { threshold - $0.score } }

    public enum Advice: Sendable, Equatable, CustomStringConvertible {
        /// Fewer than two named teachers.
        case anotherPerson(teachers: Int)
        /// Some teachers' examples stand apart.
        case drawnDifferently(apart: [String], teachers: Int)
        /// The nearest other shape lies within `closeness` of the threshold.
        case moreDistinct(from: String, margin: Double)
        /// A built-in recognizer takes `count` of its `of` examples.
        case builtInTakes(recognizer: String, count: Int, of: Int)

        public var description: String {
            switch self {
            case .anotherPerson(let n):
                (n == 0 ? "nobody is named as its teacher" : "one person taught it")
                    + ": ask someone else to draw it too (gestured learn NAME --person THEM ...), or strangers who draw it otherwise will be rejected"
            case .drawnDifferently(let apart, let n):
                n == 2 || apart.isEmpty
                    ? "its teachers draw it in different ways: strangers who draw it yet another way will be rejected; ask more people, so that each way of drawing it has two or more teachers"
                    : "\(apart.joined(separator: ", ")) draw\(apart.count == 1 ? "s" : "") it unlike the others: ask more people who draw it that way, or agree on one way of drawing it"
            case .moreDistinct(let other, let margin):
                "\(other) lies close (" + (margin >= 0 ? "\(TeacherReport.text(margin)) below" : "\(TeacherReport.text(-margin)) above")
                    + " the threshold): a more distinct shape would be taken for it less often"
            case .builtInTakes(let r, let n, let of):
                "the built-in \(r) takes \(n) of its \(of) examples: where a \(r) binding is on the device, such strokes are reported as \(r)s (it decides first); a more distinct shape, or no \(r) binding there"
            }
        }
    }

    public var advice: [Advice] {
        var out: [Advice] = []
        if teachers.count < 2 { out.append(.anotherPerson(teachers: teachers.count)) }
        if teachersDisagree { out.append(.drawnDifferently(apart: apart.map(\.name), teachers: teachers.count)) }
        if let n = nearest, let m = nearestMargin, m < Self.closeness { out.append(.moreDistinct(from: n.shape, margin: m)) }
        out += builtIn.map { .builtInTakes(recognizer: $0.recognizer, count: $0.examples.count, of: examples) }
        return out
    }

    /// The report as `learn` prints it: a heading line, facts indented, then advice.
    public var lines: [String] {
        var out = ["\(shape): \(examples) example\(examples == 1 ? "" : "s") by \(teachers.count) teacher\(teachers.count == 1 ? "" : "s")"
            + (unnamed > 0 ? " (\(unnamed) unnamed)" : "") + ", threshold \(Self.text(threshold))"]
        if let c = consistency {
            out.append("  teachers " + (teachersDisagree ? "disagree" : "agree")
                + ": median \(Self.text(c)) against each other (each teacher's examples against the others'; below \(Self.text(floor)) stands apart, below \(Self.text(floor + Self.agreementMargin)) together they disagree): "
                + teachers.map { "\($0.name) \(Self.text($0.agreement))" }.joined(separator: ", "))
        }
        if !apart.isEmpty {
            out.append("  stands apart: " + apart.map { "\($0.name) (\(Self.text($0.agreement)))" }.joined(separator: ", "))
        }
        if let n = nearest, let m = nearestMargin {
            out.append("  closest other shape: \(n.shape) (its example \(n.example) scores \(Self.text(n.score)), "
                + (m >= 0 ? "\(Self.text(m)) below" : "\(Self.text(-m)) above") + " the threshold)")
        } else {
            out.append("  closest other shape: none taught beside it")
        }
        out.append("  built-in shapes (its examples drawn \(DecimalText.string(BuiltInLookAlikes.sizeMM, places: 0)) mm across): "
            + (builtIn.isEmpty ? "neither circle nor checkmark takes any"
                : builtIn.map { "\($0.recognizer) takes example\($0.examples.count == 1 ? "" : "s") " + $0.examples.map(String.init).joined(separator: ", ") }.joined(separator: "; ")))
        out += advice.map { "  advice: \($0)" }
        return out
    }

    static func text(_ x: Double) -> String { DecimalText.string(x, places: 3, padded: true) }
}
