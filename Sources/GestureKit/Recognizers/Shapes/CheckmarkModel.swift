/// What separates a check from a v in how people draw them, as six numbers measured on the two
/// legs (CheckmarkAnalysis). A v has legs of about equal length, meeting in the middle of its
/// width, at steep and symmetric angles, and ends about as high as it started; a check has a
/// short first leg, turns in the left part of its width, and rises well above where it began.
public struct CheckmarkFeatures: Sendable, Equatable {
    /// ln(second leg / first leg): 0 for equal legs.
    public var legRatio = 0.0
    /// Where the turn lies across the legs' width: 0 at the left edge, 1 at the right.
    public var turnPosition = 0.0
    /// Directions of the legs, degrees on screen (0 = right, 90 = down, −90 = up).
    public var firstAngle = 0.0
    public var secondAngle = 0.0
    /// How far the second leg bows from straight, over its length.
    public var secondBow = 0.0
    /// How far the end rises above the first leg's start, over the second leg's length.
    public var rise = 0.0

    public static let count = 6
    public static let names = ["leg ratio (ln)", "turn position", "first angle", "second angle", "second bow", "rise"]

    public init() {}

    public init(_ v: [Double]) {
        precondition(v.count == Self.count)
        legRatio = v[0]; turnPosition = v[1]; firstAngle = v[2]; secondAngle = v[3]; secondBow = v[4]; rise = v[5]
    }

    public subscript(i: Int) -> Double {
        switch i {
        case 0: legRatio
        case 1: turnPosition
        case 2: firstAngle
        case 3: secondAngle
        case 4: secondBow
        default: rise
        }
    }

    public var values: [Double] { (0..<Self.count).map { self[$0] } }
}

/// A linear score over the features: `bias + Σ weight · feature`, positive for a check. The
/// weights are a logistic regression (L2-regularized, on standardized features) fitted on the
/// checks and the strokes that pass the checkmark's shape gates — in practice v's — of the five
/// people of the unistroke corpus; `gestured-bench accuracy` fits them, prints them, and
/// measures them leave-one-subject-out (docs/recognition.md).
public struct CheckmarkModel: Sendable, Equatable {
    public var bias: Double
    public var weights: CheckmarkFeatures

    public init(bias: Double, weights: CheckmarkFeatures) {
        self.bias = bias
        self.weights = weights
    }

    /// The weight times the feature, one term per feature (the trace shows them).
    public func term(_ i: Int, of f: CheckmarkFeatures) -> Double { weights[i] * f[i] }

    public func score(_ f: CheckmarkFeatures) -> Double {
        var s = bias
        for i in 0..<CheckmarkFeatures.count { s += term(i, of: f) }
        return s
    }

    /// Fitted on all five people (`gestured-bench accuracy --model`).
    public static let standard = CheckmarkModel(bias: 9.821092461382786, weights: CheckmarkFeatures([
        4.2844275409552255, -9.758291759093954, -0.16256238569102616, 0.0653703741749212, 27.255977811462806,
        10.206327474423098,
    ]))
}
