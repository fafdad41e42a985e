/// How a checkmark is judged: gates that say what shape a check has at all (two legs, down
/// then up-right, each roughly straight), then a score that says whether it is a check rather
/// than a v (CheckmarkModel). The gates are wide on purpose — they hold for checks of every
/// person in the corpus with room to spare; telling a check from a v is the score's job.
public struct CheckmarkRules: RecognizerRules {
    /// The second (up-right) leg is at least this many times as long as the first.
    public var minRatio = 1.0
    /// Below it the stroke is a plain up-right line, not a check.
    public var minFirstMM = 3.0
    /// A smaller check is a tap with a wobble.
    public var minSecondMM = 10.0
    /// Or 10 % of the two legs' length if that is more. Real fingers jitter: a strict
    /// per-sample rule rejects honest checks.
    public var hysteresisMM = 2.0
    /// How far the second leg may bow away from its chord, as a fraction of its length:
    /// a square root's bar, a curl, a rectangle's corner show up here.
    public var maxBow = 0.3
    /// The same for the first leg, which people draw curved more often.
    public var maxFirstBow = 0.45
    /// People often begin a check with a small flick up or a curl before the down leg.
    public var maxHook = 2.0
    /// 0 is the model's even odds.
    public var minScore = 0.0
    public var model = CheckmarkModel.standard

    public init() {}

    public static let parameters: [Parameter<Self>] = [
        Parameter("min_ratio", \.minRatio, range: 1...5, "Second leg length over first leg length, at least."),
        Parameter("min_first_mm", \.minFirstMM, range: 0.5...100, was: "min_first", "Shortest first leg."),
        Parameter("min_second_mm", \.minSecondMM, range: 1...300, was: "min_second", "Shortest second leg."),
        Parameter("hysteresis_mm", \.hysteresisMM, range: 0...20, was: "hysteresis",
                  "How far a leg may go back before it breaks the shape (or 10 % of its length)."),
        Parameter("max_bow", \.maxBow, range: 0.05...1, "How far the second leg may bow from straight, over its length."),
        Parameter("max_hook", \.maxHook, range: 0...5,
                  "Longest hook at touch-down before the first leg, over the first leg's length."),
        Parameter("min_score", \.minScore, range: -20...20,
                  "Check-versus-v score to reach; higher rejects more v's and more untidy checks."),
    ]
}

public enum CheckmarkVerdict: Sendable, Equatable {
    case recognized
    case tooFewPoints
    case firstTooShort
    case secondTooShort
    case ratio
    case firstDirection
    case secondDirection
    case hook
    case notMonotonic
    case bowed
    case score

    public var reason: String {
        switch self {
        case .recognized: "recognized"
        case .tooFewPoints: "too few points"
        case .firstTooShort: "first leg too short"
        case .secondTooShort: "second leg too short"
        case .ratio: "second leg shorter than the first"
        case .firstDirection: "first leg not down"
        case .secondDirection: "second leg not up-right"
        case .hook: "hook at touch-down longer than the first leg"
        case .notMonotonic: "a leg goes back beyond the hysteresis"
        case .bowed: "a leg bows away from a straight line"
        case .score: "more like a v than a check (score)"
        }
    }
}

/// What the checkmark rules measured on one stroke (shared by the recognizer and the trace).
public struct CheckmarkAnalysis: Sendable {
    /// Start of the first leg: the highest point on screen before the turn. Whatever the finger
    /// drew before it is the hook at touch-down.
    public var start = Point.zero
    /// The turn point: the lowest point on screen (largest y) of the path.
    public var turn = Point.zero
    public var end = Point.zero
    public var firstMM = 0.0
    public var secondMM = 0.0
    /// Length of the path before the first leg's start, mm.
    public var hookMM = 0.0
    /// Largest distance any point strays from its leg's chord, over that leg's length.
    public var firstBow = 0.0
    public var secondBow = 0.0
    /// Largest step back against each leg's direction, mm (compared with the hysteresis).
    public var backtrackMM = 0.0
    /// The numbers the score weighs, and the score (nil until the gates pass).
    public var features = CheckmarkFeatures()
    public var score: Double?
    public var verdict = CheckmarkVerdict.tooFewPoints

    public var ratio: Double { firstMM > 0 ? secondMM / firstMM : .infinity }
    public var firstAngle: Double { features.firstAngle }
    public var secondAngle: Double { features.secondAngle }
    public var isRecognized: Bool { verdict == .recognized }

    public init() {}

    /// First leg: 0°…120° (down-right to down, a little left allowed).
    /// Second leg: −90°…−10° (up-right: not past vertical, not flat).
    static let firstRange = 0.0...120.0
    static let secondRange = -90.0...(-10.0)

    /// Measures `points` (millimetres, evenly spaced: Stroke.resample). Every measure is taken
    /// even after a gate fails, so a trace shows them all; `complete: false` stops at the first
    /// gate that fails, with the same verdict (the recognizer decides so: most strokes are no
    /// check, and the angles and bows come after the legs' lengths).
    public static func analyze(_ points: [Point], rules: CheckmarkRules, complete: Bool = true) -> CheckmarkAnalysis {
        var a = CheckmarkAnalysis()
        guard points.count >= 8 else { return a }
        var order = FirstFailedRule<CheckmarkVerdict>(complete: complete)
        func gate(_ failed: Bool, _ v: CheckmarkVerdict) -> Bool { order.check(failed, v) }
        func done() -> CheckmarkAnalysis {
            a.verdict = order.verdict ?? .recognized
            return a
        }
        var turnIndex = 0
        for i in points.indices where points[i].y > points[turnIndex].y { turnIndex = i }
        var startIndex = 0
        for i in 0...turnIndex where points[i].y < points[startIndex].y { startIndex = i }
        a.start = points[startIndex]
        a.turn = points[turnIndex]
        a.end = points[points.count - 1]
        a.firstMM = a.start.distance(to: a.turn)
        a.secondMM = a.turn.distance(to: a.end)
        if gate(a.firstMM < rules.minFirstMM, .firstTooShort) || gate(a.secondMM < rules.minSecondMM, .secondTooShort)
            || gate(a.ratio < rules.minRatio, .ratio) { return done() }

        let degrees = 180 / Double.pi
        let d1 = a.turn - a.start, d2 = a.end - a.turn
        a.features.firstAngle = Angle.atan2(d1.y, d1.x) * degrees
        a.features.secondAngle = Angle.atan2(d2.y, d2.x) * degrees
        if gate(!firstRange.contains(a.firstAngle), .firstDirection)
            || gate(!secondRange.contains(a.secondAngle), .secondDirection) { return done() }

        for i in 0..<startIndex { a.hookMM += points[i].distance(to: points[i + 1]) }
        if gate(a.hookMM > rules.maxHook * a.firstMM, .hook) { return done() }

        let (back, minX, maxX) = backtrack(points, from: startIndex, turn: turnIndex)
        a.backtrackMM = back
        if gate(a.backtrackMM > max(rules.hysteresisMM, 0.1 * (a.firstMM + a.secondMM)), .notMonotonic) { return done() }

        a.firstBow = bow(points, startIndex, turnIndex) / max(a.firstMM, rules.hysteresisMM)
        a.secondBow = bow(points, turnIndex, points.count - 1) / max(a.secondMM, rules.hysteresisMM)
        if gate(a.firstBow > rules.maxFirstBow || a.secondBow > rules.maxBow, .bowed) || order.verdict != nil { return done() }

        a.features.legRatio = ShapeMath.log(a.secondMM / a.firstMM)
        a.features.turnPosition = maxX > minX ? (a.turn.x - minX) / (maxX - minX) : 0
        a.features.secondBow = a.secondBow
        a.features.rise = (a.start.y - a.end.y) / a.secondMM
        let score = rules.model.score(a.features)
        a.score = score
        _ = gate(score < rules.minScore, .score)
        return done()
    }

    /// How far the path goes back, from the first leg's start (monotonic with hysteresis: y only
    /// grows (down) on the first leg, to `turn`, and only shrinks (up) on the second; x never goes
    /// left much on either), and its least and greatest x.
    private static func backtrack(_ points: [Point], from startIndex: Int, turn turnIndex: Int)
        -> (back: Double, minX: Double, maxX: Double) {
        var back = 0.0
        var maxY = -Double.infinity, minY = Double.infinity, maxX = -Double.infinity, minX = Double.infinity
        for i in startIndex..<points.count {
            let p = points[i]
            maxX = max(maxX, p.x)
            minX = min(minX, p.x)
            back = max(back, maxX - p.x)
            if i <= turnIndex {
                maxY = max(maxY, p.y)
                back = max(back, maxY - p.y)
            } else {
                minY = min(minY, p.y)
                back = max(back, p.y - minY)
            }
        }
        return (back, minX, maxX)
    }

    /// True when no resampling of `stroke` can pass the second leg's gates: a cheap test at lift,
    /// before any resampling. The second leg runs from the turn t, a point of the path, to the
    /// path's end e, at least `minSecondMM` long, rising at −90°…−10° (up and right, y down). Then
    /// f(t) = t.y − e.y − tan 9° · (e.x − t.x) ≥ |e − t| · sin 1° / cos 9° > 0.0176 · minSecondMM
    /// (9° rather than 10°: a turn right at the gate is still clear of the bound, whatever the
    /// rounding). f is linear and t lies on a segment of the path, so some sample reaches that
    /// too. A straight swipe has none: no point far to the left of its end is lower by much.
    /// Tested as t.y + tan 9° · t.x ≥ e.y + tan 9° · e.x + least, one product per sample; summed so
    /// rather than as f, with the bar lowered by 10⁻⁹ mm (far above the rounding of either sum): a
    /// stroke ruled out so is ruled out by f too, and one at the bar is left to the gates.
    public static func rulesOut(_ stroke: Stroke, rules: CheckmarkRules) -> Bool {
        guard let e = stroke.samples.last?.mm else { return true }
        let tan9 = 0.15838444032453627
        let bar = e.y + tan9 * e.x + 0.0176 * rules.minSecondMM - 1e-9
        for s in stroke.samples where s.mm.y + tan9 * s.mm.x >= bar { return false }
        return true
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
