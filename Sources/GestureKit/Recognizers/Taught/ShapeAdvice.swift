/// What `gestured learn` tells the operator about a shape's examples, from its calibration:
/// an example that does not fit the others, another shape it will be confused with, and whether
/// more examples would help.
public enum ShapeAdvice: Sendable, Equatable, CustomStringConvertible {
    /// Example `example` (1-based) scores `score` against the others, below the threshold and the
    /// calibration's floor: drawn again like that it would be rejected — a slip, or a different
    /// way of drawing the shape.
    case doesNotFit(example: Int, score: Double)
    /// Example `example` of `shape` scores `score` against this shape, within `ShapeCalibration.margin`
    /// of the threshold: strokes of the two will be taken for each other.
    case confused(shape: String, example: Int, score: Double)
    /// Fewer than `enoughExamples`: the examples' spread is not known yet.
    case fewExamples(count: Int)
    /// The leave-one-out scores spread from `low` to `high`, more than `wideSpread`: the examples
    /// disagree, and more would show which way the shape is drawn.
    case wideSpread(low: Double, high: Double)
    /// Every example is one person's (or who drew them is not said): people who did not teach
    /// it may draw it otherwise, and their strokes be rejected.
    case onePerson(people: Int)
    /// The examples of `people` people score as low as `low` against each other's people: the
    /// shape is drawn in different ways, and its floor went down to `floor` (`atLowest`: as far
    /// as it goes, ShapeCalibration.lowest — strangers who draw it yet another way will be rejected).
    case peopleDisagree(people: Int, low: Double, floor: Double, atLowest: Bool)

    /// Below this many examples, a leave-one-out score rests on three others or fewer.
    public static let enoughExamples = 5
    /// Leave-one-out scores spreading wider than this: on five people's own strokes taught five at
    /// a time (400 draws), 95 % spread less than 0.032, the median 0.011.
    public static let wideSpread = 0.05

    /// The advice for a shape whose calibration is `c` and threshold `threshold` (calibrated or set).
    public static func advice(_ c: ShapeCalibration, examples: Int, threshold: Double) -> [ShapeAdvice] {
        var out: [ShapeAdvice] = []
        // Below the floor too: a threshold raised over a look-alike leaves half the examples under
        // it by design (the confusion is the news then, not the examples).
        let fits = Swift.min(threshold, c.shapeFloor)
        for (i, score) in c.within.enumerated() where score < fits {
            out.append(.doesNotFit(example: i + 1, score: score))
        }
        // Beyond the rounding of a calibrated threshold: the calibration found no room for the margin.
        if let n = c.nearestOther, n.score + ShapeCalibration.margin > threshold + 0.5 / ShapeCalibration.steps {
            out.append(.confused(shape: n.shape, example: n.example, score: n.score))
        }
        if examples < enoughExamples {
            out.append(.fewExamples(count: examples))
        } else if let low = c.within.min(), let high = c.within.max(), high - low > wideSpread {
            out.append(.wideSpread(low: low, high: high))
        }
        if c.people < 2 {
            if examples >= 2 { out.append(.onePerson(people: c.people)) }
        } else if let low = c.across.first, c.shapeFloor < ShapeCalibration.floor(examples: examples) {
            out.append(.peopleDisagree(people: c.people, low: low, floor: c.shapeFloor, atLowest: c.shapeFloor <= ShapeCalibration.lowest))
        }
        return out
    }

    public var description: String {
        switch self {
        case .doesNotFit(let e, let s):
            "example \(e) does not fit the others (score \(Self.text(s)), below the threshold): redraw it, or remove it from the file if it was a slip"
        case .confused(let shape, let e, let s):
            "will be confused with \(shape): its example \(e) scores \(Self.text(s)) against this shape"
        case .fewExamples(let n):
            "\(n) example\(n == 1 ? "" : "s"): teach at least \(Self.enoughExamples) so the threshold can be calibrated from their spread"
        case .wideSpread(let low, let high):
            "the examples disagree (scores against each other \(Self.text(low))–\(Self.text(high))): more examples would help"
        case .onePerson(let n):
            (n == 0 ? "no example says who drew it" : "every example is one person's")
                + ": other people who draw it otherwise may be rejected; if others will use it, add examples they draw (gestured learn --person NAME)"
        case .peopleDisagree(let n, let low, let floor, let atLowest):
            "\(n) people draw it differently (their examples score as low as \(Self.text(low)) against each other's): the threshold goes down to \(Self.text(floor))"
                + (atLowest ? ", the least it may: a stranger who draws it yet another way will often be rejected; add examples of each way of drawing it, from more people"
                    : " for people who did not teach it; add examples from more people to widen it")
        }
    }

    static func text(_ x: Double) -> String { DecimalText.string(x, places: 3) }
}
