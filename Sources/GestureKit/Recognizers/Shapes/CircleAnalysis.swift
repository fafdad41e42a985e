/// The thresholds a circle is judged by (the recognizer's parameters, in one value).
public struct CircleRules: RecognizerRules {
    /// Relative tolerance of the three classic circle tests (Michael Katz, "UIGestureRecognizer
    /// Tutorial: Creating Custom Recognizers", raywenderlich.com 2015): RMS radial error / radius,
    /// the empty inner square, the box cover.
    public var tolerance = 0.2
    /// Smaller circles are taps and jitter, not a deliberate gesture.
    public var minRadiusMM = 5.0
    /// A kiosk's glass gets wiped: a finger or a cloth going round the whole screen is not the
    /// small circle an admin menu is bound to. The default is no limit.
    public var maxRadiusMM = 1000.0
    /// Angle swept around the fitted centre, in turns: a closed circle sweeps 1, a 3/4 arc 0.75.
    public var minTurns = 0.82
    public var maxTurns = 3.0
    /// Turns swept against the main direction (S shapes, figure-eights and zig-zags sweep back).
    public var maxBacktrackTurns = 0.08
    /// RMS deviation of the tangent's direction from turning at an even rate. A circle turns
    /// evenly; a rectangle turns in four 90° steps (≈ 0.45 rad RMS), a triangle in three
    /// (≈ 0.6), a rounded square in between: corners show up here whatever their orientation.
    public var maxTurningDeviation = 0.25

    public init() {}

    public static let parameters: [Parameter<Self>] = [
        Parameter("tolerance", \.tolerance, range: 0.05...0.5,
                  "Relative radial error allowed; also sizes the inner square and the box cover."),
        Parameter("min_radius_mm", \.minRadiusMM, range: 1...500, was: "min_radius", "Smallest circle radius."),
        Parameter("max_radius_mm", \.maxRadiusMM, range: 5...1000, "Largest circle radius (1000: no limit)."),
        Parameter("min_turns", \.minTurns, range: 0.5...2, "Angle the path must sweep around the centre (1 = closed)."),
        Parameter("max_turns", \.maxTurns, range: 1...10, "Most turns allowed."),
        Parameter("max_turning_deviation_rad", \.maxTurningDeviation, range: 0.05...1, was: "max_turning_deviation",
                  "RMS deviation from turning at an even rate; rejects rectangles and polygons."),
    ]
}

/// Why a stroke is not a circle (or that it is one). The order of the cases is the order in which
/// the rules are tried.
public enum CircleVerdict: Sendable, Equatable {
    case recognized
    case tooFewPoints
    case noFit
    case tooSmall
    case tooLarge
    case fitError
    case pointInside
    case boxNotCovered
    case tooFewTurns
    case tooManyTurns
    case backtracks
    case corners

    public var reason: String {
        switch self {
        case .recognized: "recognized"
        case .tooFewPoints: "too few points"
        case .noFit: "no circle fits"
        case .tooSmall: "radius below minimum"
        case .tooLarge: "radius above maximum"
        case .fitError: "radial error above tolerance"
        case .pointInside: "a point inside the inner square"
        case .boxNotCovered: "path box covers too little of the circle's box"
        case .tooFewTurns: "swept angle below minimum turns"
        case .tooManyTurns: "swept angle above maximum turns"
        case .backtracks: "path sweeps back around the centre"
        case .corners: "turns unevenly (corners)"
        }
    }
}

/// Everything the circle rules measured on one stroke: the recognizer decides from it and
/// `gestured trace` draws it, so both always agree.
public struct CircleAnalysis: Sendable {
    public var fit: CircleFit?
    /// RMS of (distance to centre − radius), divided by the radius.
    public var fitError = Double.infinity
    /// Half-side of the inner square no point may enter (r/√2·tolerance), mm.
    public var innerHalfSide = 0.0
    public var pointsInside = 0
    public var pathBox = Rect.empty
    public var fitBox = Rect.empty
    /// Area of pathBox ∩ fitBox over the area of fitBox.
    public var boxCoverage = 0.0
    /// Signed angle swept around the centre, in turns; > 0 is clockwise on screen (y down).
    public var sweptTurns = 0.0
    public var backtrackTurns = 0.0
    public var turningDeviation = Double.infinity
    public var verdict = CircleVerdict.tooFewPoints

    public var turns: Double { abs(sweptTurns) }
    public var direction: Direction { sweptTurns >= 0 ? .clockwise : .counterclockwise }
    public var isRecognized: Bool { verdict == .recognized }

    public init() {}

    /// Measures `points` (millimetres, evenly spaced along the path: see Stroke.resample) against
    /// `rules`. Every measure is computed even after a rule fails, so a trace shows them all.
    public static func analyze(_ points: [Point], rules: CircleRules) -> CircleAnalysis {
        var scratch = TurningScratch()
        return analyze(points, rules: rules, scratch: &scratch)
    }

    /// The same, with working storage the caller keeps between strokes (no allocation once warm).
    /// `complete: false` stops at the first rule that fails, with the same verdict: the measures
    /// after it are left at their defaults. The recognizer decides so — most strokes are no
    /// circle, and the turning measure, the dearest, comes last.
    public static func analyze(_ points: [Point], rules: CircleRules, scratch: inout TurningScratch,
                               complete: Bool = true) -> CircleAnalysis {
        var a = CircleAnalysis()
        for p in points { a.pathBox.include(p) }
        guard points.count >= 8 else { return a }
        guard let fit = CircleFit.taubin(points) else {
            a.verdict = .noFit
            return a
        }
        a.fit = fit
        let c = fit.center
        let r = fit.radius
        let tol = rules.tolerance
        var order = FirstFailedRule<CircleVerdict>(complete: complete)
        func rule(_ failed: Bool, _ v: CircleVerdict) -> Bool { order.check(failed, v) }
        func done() -> CircleAnalysis {
            a.verdict = order.verdict ?? .recognized
            return a
        }
        if rule(r < rules.minRadiusMM, .tooSmall) || rule(r > rules.maxRadiusMM, .tooLarge) { return done() }

        // Radial error.
        var sq = 0.0
        for p in points {
            let d = p.distance(to: c) - r
            sq += d * d
        }
        a.fitError = (sq / Double(points.count)).squareRoot() / r
        if rule(!(a.fitError <= tol), .fitError) { return done() }

        // The inner square: a path through the middle is an S, an 8 or a spiral, not a circle.
        a.innerHalfSide = r / (2.0).squareRoot() * tol
        for p in points where abs(p.x - c.x) < a.innerHalfSide && abs(p.y - c.y) < a.innerHalfSide {
            a.pointsInside += 1
        }
        if rule(a.pointsInside > 0, .pointInside) { return done() }

        // The box cover: a short arc leaves much of the fitted circle's box empty.
        a.fitBox = Rect(minX: c.x - r, minY: c.y - r, maxX: c.x + r, maxY: c.y + r)
        let ix = min(a.pathBox.maxX, a.fitBox.maxX) - max(a.pathBox.minX, a.fitBox.minX)
        let iy = min(a.pathBox.maxY, a.fitBox.maxY) - max(a.pathBox.minY, a.fitBox.minY)
        a.boxCoverage = ix > 0 && iy > 0 ? (ix * iy) / (4 * r * r) : 0
        if rule(!(a.boxCoverage > 1 - tol), .boxNotCovered) { return done() }

        a.measureSweep(points, center: c)
        if rule(a.turns < rules.minTurns, .tooFewTurns) || rule(a.turns > rules.maxTurns, .tooManyTurns)
            || rule(a.backtrackTurns > rules.maxBacktrackTurns, .backtracks) { return done() }

        a.turningDeviation = Self.turningDeviation(points, scratch: &scratch)
        _ = rule(!(a.turningDeviation <= rules.maxTurningDeviation), .corners)
        return done()
    }

    /// True when a stroke whose raw path has this box and length cannot pass the rules once
    /// resampled to `n` points, whatever its shape: a cheap test at lift, before any resampling or
    /// fit. Two rules bound the box of the resampled points (sides W ≤ H here, r the fitted radius):
    /// - the box cover: the box covers more than 1 − tol of the fitted circle's 2r × 2r box, so
    ///   W > 2r(1 − tol), and r ≥ the minimum radius;
    /// - the radial error: its RMS over n points is at most tol·r, so no point lies farther than
    ///   r(1 + tol·√n) from the centre, and H ≤ 2r(1 + tol·√n) < W(1 + tol·√n)/(1 − tol).
    /// The resampled points lie on the path, each raw point within a step (length/(n − 1)) of one
    /// (two at the end, where rounding may repeat the last point): their box is inside the raw box
    /// and at most two steps shorter at each end. A straight swipe fails the second bound by far.
    public static func rulesOut(box: Rect, lengthMM: Double, samples n: Int, rules: CircleRules) -> Bool {
        guard !box.isEmpty, n >= 8 else { return true }
        let tol = rules.tolerance
        let short = min(box.width, box.height), long = max(box.width, box.height)
        let slack = 1 + 1e-9  // rounding in the measures the rules compare
        if short * slack <= 2 * rules.minRadiusMM * (1 - tol) { return true }
        let step = lengthMM / Double(n - 1)
        let spread = (1 + tol * Double(n).squareRoot()) / (1 - tol)
        return long - 4 * step > spread * short * slack
    }

    /// Angle swept around the centre, step by step; steps against the overall direction are
    /// added up as backtracking.
    private mutating func measureSweep(_ points: [Point], center c: Point) {
        var total = 0.0, forward = 0.0, backward = 0.0
        var i = 1
        while i < points.count {
            let u = points[i - 1] - c
            let v = points[i] - c
            let step = Angle.between(u, v)
            total += step
            if step > 0 { forward += step } else { backward -= step }
            i += 1
        }
        let twoPi = 2 * Double.pi
        sweptTurns = total / twoPi
        backtrackTurns = min(forward, backward) / twoPi
    }

    /// How unevenly the path turns, in radians: the RMS of the tangent's direction (unwrapped)
    /// after removing what an ellipse explains — a straight line (even turning) plus the first
    /// two harmonics per turn (an ellipse turns faster at its ends: 2 cycles per turn). What is
    /// left are corners: a square's four 90° steps (≈ 0.4 rad), a triangle's three, a star's.
    /// The first and last 5 % of the path are left out (a finger landing or lifting draws hooks).
    static func turningDeviation(_ points: [Point], scratch: inout TurningScratch) -> Double {
        let n = points.count
        let skip = max(1, n / 20)
        let lo = skip, hi = n - 1 - skip  // segment indices [lo, hi)
        guard hi - lo >= 8 else { return .infinity }
        let m = Double(hi - lo)

        // The tangent directions and the harmonics' sines and cosines are computed once: the
        // back-fitting below passes over them many times (trig here is a series, not an instruction).
        scratch.removeAll()
        forEachTangent(points, lo, hi) { _, p in scratch.phi.append(p) }
        let phi = scratch.phi

        fitLine(phi, from: lo, m, into: &scratch)
        let line = scratch.line
        let cos1 = scratch.cos1, sin1 = scratch.sin1, cos2 = scratch.cos2, sin2 = scratch.sin2

        // Harmonics k = 1, 2 of the turning angle, fitted by back-fitting (each pair in turn,
        // on what the others leave), which converges fast: the pairs are nearly orthogonal.
        var coef: (c1: Double, s1: Double, c2: Double, s2: Double, shift: Double) = (0, 0, 0, 0, 0)
        func model(_ i: Int) -> Double {
            line[i] + coef.shift + coef.c1 * cos1[i] + coef.s1 * sin1[i] + coef.c2 * cos2[i] + coef.s2 * sin2[i]
        }
        for _ in 0..<4 {
            for harmonic in 0...2 {
                // Residual without this component, projected on it (2×2 normal equations).
                var scc = 0.0, sss = 0.0, scs = 0.0, src = 0.0, srs = 0.0, sr = 0.0
                for i in phi.indices {
                    let c = harmonic == 0 ? 1 : (harmonic == 1 ? cos1[i] : cos2[i])
                    let s = harmonic == 0 ? 0 : (harmonic == 1 ? sin1[i] : sin2[i])
                    var r = phi[i] - model(i)
                    switch harmonic {
                    case 0: r += coef.shift
                    case 1: r += coef.c1 * c + coef.s1 * s
                    default: r += coef.c2 * c + coef.s2 * s
                    }
                    scc += c * c; sss += s * s; scs += c * s; src += r * c; srs += r * s; sr += r
                }
                if harmonic == 0 {
                    coef.shift = sr / m
                    continue
                }
                let det = scc * sss - scs * scs
                guard det > 1e-9 else { continue }
                let a = (src * sss - srs * scs) / det
                let b = (srs * scc - src * scs) / det
                if harmonic == 1 { coef.c1 = a; coef.s1 = b } else { coef.c2 = a; coef.s2 = b }
            }
        }
        var sq = 0.0
        for i in phi.indices {
            let d = phi[i] - model(i)
            sq += d * d
        }
        return (sq / m).squareRoot()
    }

    /// The least-squares line through (k, φ_k), k from `lo` (`m` of them), and the cosines and
    /// sines of its first two harmonics, into `scratch` (`turningDeviation`).
    private static func fitLine(_ phi: [Double], from lo: Int, _ m: Double, into scratch: inout TurningScratch) {
        var si = 0.0, sp = 0.0, sii = 0.0, sip = 0.0
        for (i, p) in phi.enumerated() {
            let x = Double(lo + i)
            si += x; sp += p; sii += x * x; sip += x * p
        }
        let slope = (sip - si * sp / m) / (sii - si * si / m)
        let intercept = (sp - slope * si) / m
        for i in phi.indices {
            let theta = intercept + slope * Double(lo + i)
            scratch.line.append(theta)
            scratch.cos1.append(Angle.cos(theta)); scratch.sin1.append(Angle.sin(theta))
            scratch.cos2.append(Angle.cos(2 * theta)); scratch.sin2.append(Angle.sin(2 * theta))
        }
    }

    /// Calls `body(k, φ_k)` for k in [lo, hi): φ_k is the direction of the chord from point
    /// k − span to k + span, unwrapped (it keeps growing past ±π as the path turns), from 0.
    /// The chord, rather than one segment, smooths the finger's jitter and the kinks that
    /// resampling a coarsely sampled path leaves, while a real corner still turns in a few steps.
    private static func forEachTangent(_ points: [Point], _ lo: Int, _ hi: Int, _ body: (Int, Double) -> Void) {
        let span = tangentSpan
        var phi = 0.0
        var prev = Point.zero
        var k = lo
        while k < hi {
            let d = points[min(points.count - 1, k + span)] - points[max(0, k - span)]
            if k > lo { phi += Angle.between(prev, d) }
            prev = d
            body(k, phi)
            k += 1
        }
    }

    static let tangentSpan = 2
}

/// Working storage of the turning measure, kept by the recognizer between strokes.
public struct TurningScratch: Sendable {
    var phi: [Double] = []
    var line: [Double] = []
    var cos1: [Double] = []
    var sin1: [Double] = []
    var cos2: [Double] = []
    var sin2: [Double] = []

    public init() {}

    mutating func removeAll() {
        phi.removeAll(keepingCapacity: true)
        line.removeAll(keepingCapacity: true)
        cos1.removeAll(keepingCapacity: true)
        sin1.removeAll(keepingCapacity: true)
        cos2.removeAll(keepingCapacity: true)
        sin2.removeAll(keepingCapacity: true)
    }
}
