/// The thresholds a checkmark is judged by.
public struct CheckmarkRules: Sendable, Equatable {
    /// The second (up-right) stroke is at least this many times as long as the first.
    /// The seeds say 2, but a quarter of the honest checkmarks in the tuning set are between
    /// 1.5 and 2, while a v (symmetric) stays below 1.25: 1.4 sits between the two.
    public var minRatio: Double = 1.4
    /// Shortest first stroke; below it the stroke is a plain up-right line, not a check.
    public var minFirstMM: Double = 3
    /// Shortest second stroke: a smaller check is a tap with a wobble.
    public var minSecondMM: Double = 10
    /// How far a stroke may go back (against its direction), mm, or 10 % of the two strokes'
    /// length if that is more. Real fingers jitter and start with small hooks: a strict
    /// per-sample rule rejects honest checkmarks.
    public var hysteresisMM: Double = 2
    /// How far the second stroke may bow away from its chord, as a fraction of its length:
    /// a square root's bar, a curl, a rectangle's corner show up here.
    public var maxBow: Double = 0.25
    /// The same for the first stroke, which people draw curved more often (a hook).
    public var maxFirstBow: Double = 0.45

    public init() {}
}

public enum CheckmarkVerdict: Sendable, Equatable {
    case recognized
    case tooFewPoints
    case firstTooShort
    case secondTooShort
    case ratio
    case firstDirection
    case secondDirection
    case notMonotonic
    case bowed

    public var reason: String {
        switch self {
        case .recognized: "recognized"
        case .tooFewPoints: "too few points"
        case .firstTooShort: "first stroke too short"
        case .secondTooShort: "second stroke too short"
        case .ratio: "second stroke not long enough against the first"
        case .firstDirection: "first stroke not down-right"
        case .secondDirection: "second stroke not up-right"
        case .notMonotonic: "a stroke goes back beyond the hysteresis"
        case .bowed: "a stroke bows away from a straight line"
        }
    }
}

/// What the checkmark rules measured on one stroke (shared by the recognizer and the trace).
public struct CheckmarkAnalysis: Sendable {
    public var start = Point.zero
    /// The turn point: the lowest point on screen (largest y) of the path.
    public var turn = Point.zero
    public var end = Point.zero
    public var firstMM = 0.0
    public var secondMM = 0.0
    /// Directions of the two strokes (start→turn, turn→end) in degrees, screen terms:
    /// 0 = right, 90 = down, −90 = up.
    public var firstAngle = 0.0
    public var secondAngle = 0.0
    /// Largest distance any point strays from its stroke's chord, over that stroke's length.
    public var firstBow = 0.0
    public var secondBow = 0.0
    /// Largest step back against each stroke's direction, mm (compared with the hysteresis).
    public var backtrackMM = 0.0
    public var verdict = CheckmarkVerdict.tooFewPoints

    public var ratio: Double { firstMM > 0 ? secondMM / firstMM : .infinity }
    public var isRecognized: Bool { verdict == .recognized }

    public init() {}

    /// First stroke: 10°…115° (down-right, allowing straight down and a little left).
    /// Second stroke: −85°…−15° (up-right: neither vertical nor flat).
    static let firstRange = 10.0...115.0
    static let secondRange = -85.0...(-15.0)

    /// Measures `points` (millimetres, evenly spaced: Stroke.resample).
    public static func analyze(_ points: [Point], rules: CheckmarkRules) -> CheckmarkAnalysis {
        var a = CheckmarkAnalysis()
        guard points.count >= 8 else { return a }
        var turnIndex = 0
        for i in points.indices where points[i].y > points[turnIndex].y { turnIndex = i }
        a.start = points[0]
        a.turn = points[turnIndex]
        a.end = points[points.count - 1]
        a.firstMM = a.start.distance(to: a.turn)
        a.secondMM = a.turn.distance(to: a.end)
        let degrees = 180 / Double.pi
        let d1 = a.turn - a.start, d2 = a.end - a.turn
        a.firstAngle = ShapeMath.atan2(d1.y, d1.x) * degrees
        a.secondAngle = ShapeMath.atan2(d2.y, d2.x) * degrees
        a.firstBow = bow(points, 0, turnIndex) / max(a.firstMM, rules.hysteresisMM)
        a.secondBow = bow(points, turnIndex, points.count - 1) / max(a.secondMM, rules.hysteresisMM)

        // Monotonic with hysteresis: y only grows (down) on the first stroke and only shrinks
        // (up) on the second; x never goes left much on either.
        var back = 0.0
        var maxY = -Double.infinity, minY = Double.infinity, maxX = -Double.infinity
        for i in points.indices {
            let p = points[i]
            maxX = max(maxX, p.x)
            back = max(back, maxX - p.x)
            if i <= turnIndex {
                maxY = max(maxY, p.y)
                back = max(back, maxY - p.y)
            } else {
                minY = min(minY, p.y)
                back = max(back, p.y - minY)
            }
        }
        a.backtrackMM = back

        a.verdict =
            if a.firstMM < rules.minFirstMM { .firstTooShort }
            else if a.secondMM < rules.minSecondMM { .secondTooShort }
            else if a.ratio < rules.minRatio { .ratio }
            else if !firstRange.contains(a.firstAngle) { .firstDirection }
            else if !secondRange.contains(a.secondAngle) { .secondDirection }
            else if a.backtrackMM > max(rules.hysteresisMM, 0.1 * (a.firstMM + a.secondMM)) { .notMonotonic }
            else if a.firstBow > rules.maxFirstBow || a.secondBow > rules.maxBow { .bowed }
            else { .recognized }
        return a
    }

    /// Largest distance of points[from...to] from the chord points[from]→points[to], mm.
    static func bow(_ points: [Point], _ from: Int, _ to: Int) -> Double {
        let a = points[from], b = points[to]
        let chord = b - a
        let len = chord.length
        var worst = 0.0
        var i = from
        while i <= to {
            let d = len > 0 ? abs(chord.cross(points[i] - a)) / len : points[i].distance(to: a)
            worst = max(worst, d)
            i += 1
        }
        return worst
    }
}
