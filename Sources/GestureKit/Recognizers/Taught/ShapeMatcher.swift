/// Matches a stroke against every taught shape of a device: the nearest example of each shape
/// by DirectionProfile distance, reported as a score (1 − mean angle mismatch / π: 1 is the same
/// turning everywhere, 0 the opposite direction everywhere). A shape matches when its score
/// reaches its threshold; of several, the highest score wins.
///
/// Templates are kept as one flat array of angles so that matching a stroke walks contiguous
/// memory and allocates nothing (20 shapes × 10 examples: docs/performance.md).
public struct ShapeMatcher: Sendable {
    /// Pieces a stroke is cut into (ShapeExample.pointCount points).
    public static let segments = ShapeExample.pointCount - 1
    /// How far DTW may shift a piece (in pieces): about a tenth of the stroke, enough for one
    /// person's legs to be longer than another's, not enough to let a different shape fold into it.
    public static let band = 6
    /// A match's distance is multiplied by (the larger total turning / the smaller)^exponent: two
    /// strokes that turn through different amounts in all (a bracket's two corners against a
    /// brace's four turns) are farther apart than their aligned directions alone say. The ratio
    /// is a correction factor as Jackknife's (Taranta et al., CHI 2017) are for its axes; the
    /// exponent is fixed at ½ on principle (a square root damps a ratio's noise), not fitted
    /// (docs/recognition.md: fitted per held-out person it scattered over 0…1).
    public static let turningExponent = 0.5
    /// Turning below this (radians) counts as this much: a nearly straight stroke's ratio would
    /// otherwise be noise over noise.
    public static let leastTurning = 1.0

    public struct Entry: Sendable {
        public var shape: Int
        public var example: Int
    }

    /// A shape's best example for a stroke.
    public struct Match: Sendable, Equatable {
        public var shape: String
        public var example: Int
        public var score: Double
        public var threshold: Double
        public var isAccepted: Bool { score >= threshold }
    }

    public let shapes: [TaughtShape]
    private let entries: [Entry]
    private let angles: [Double]
    /// Per example and piece, the arc its directions cover within the band (DirectionProfile.envelope).
    private let envelopeCenter: [Double]
    private let envelopeHalfWidth: [Double]
    /// Per shape, copied out of `shapes` so the matching loop touches no reference-counted value.
    private let thresholdDistance: [Double]
    private let rotates: [Bool]
    private let anyRotates: Bool
    /// Per example, its total turning (DirectionProfile.turning).
    private let turnings: [Double]
    public let turningExponent: Double

    public init(shapes: [TaughtShape], turningExponent: Double = ShapeMatcher.turningExponent) {
        self.shapes = shapes
        self.turningExponent = turningExponent
        var entries: [Entry] = []
        var angles: [Double] = []
        var scratch: [Double] = []
        for (s, shape) in shapes.enumerated() {
            for (e, example) in shape.examples.enumerated() {
                let points = Self.resampled(example.points)
                DirectionProfile.angles(of: points, rotate: shape.rotate, into: &scratch)
                guard scratch.count == Self.segments else { continue }
                entries.append(Entry(shape: s, example: e))
                angles.append(contentsOf: scratch)
            }
        }
        self.entries = entries
        self.angles = angles
        turnings = entries.indices.map { k in DirectionProfile.turning(angles[(k * Self.segments)..<((k + 1) * Self.segments)]) }
        var center: [Double] = [], half: [Double] = []
        for k in entries.indices {
            DirectionProfile.envelope(angles[(k * Self.segments)..<((k + 1) * Self.segments)], band: Self.band, center: &center, halfWidth: &half)
        }
        envelopeCenter = center
        envelopeHalfWidth = half
        thresholdDistance = shapes.map { Self.distance(score: $0.threshold) }
        rotates = shapes.map(\.rotate)
        anyRotates = rotates.contains(true)
    }

    public var isEmpty: Bool { entries.isEmpty }
    public var exampleCount: Int { entries.count }

    /// Stored examples have `pointCount` points already; others (hand-written files) are resampled.
    static func resampled(_ points: [Point]) -> [Point] {
        guard points.count != ShapeExample.pointCount else { return points }
        var s = Stroke(capacity: points.count)
        for p in points { s.append(mm: p, position: p) }
        var out: [Point] = []
        s.resample(count: ShapeExample.pointCount, into: &out)
        return out
    }

    /// Reusable buffers for one caller (a recognizer keeps one): matching allocates nothing.
    public struct Scratch: Sendable {
        var forward: [Double] = []
        var turned: [Double] = []
        var turnedBack: [Double] = []
        /// Per shape: the best distance and its example (−1: none within the limit).
        var distance: [Double] = []
        var example: [Int] = []
        /// DTW's two rows.
        var rows = [Double](repeating: 0, count: 2 * (ShapeMatcher.segments + 1))

        public init() {
            forward.reserveCapacity(ShapeMatcher.segments)
            turned.reserveCapacity(ShapeMatcher.segments)
            turnedBack.reserveCapacity(ShapeMatcher.segments)
        }
    }

    /// The best accepted shape for a stroke resampled to `pointCount` points, or nil.
    public func best(_ points: [Point], scratch: inout Scratch) -> Match? {
        nearest(points, scratch: &scratch, acceptedOnly: true)
        var found: Match?
        for (s, shape) in shapes.enumerated() where scratch.example[s] >= 0 {
            let score = Self.score(distance: scratch.distance[s])
            if score >= shape.threshold, score > found?.score ?? -1 {
                found = Match(shape: shape.name, example: scratch.example[s], score: score, threshold: shape.threshold)
            }
        }
        return found
    }

    /// Every shape's best example and score, best first (for `gestured trace` and `learn`).
    public func ranked(_ points: [Point]) -> [Match] {
        var scratch = Scratch()
        nearest(points, scratch: &scratch, acceptedOnly: false)
        var out: [Match] = []
        for (s, shape) in shapes.enumerated() where scratch.example[s] >= 0 {
            out.append(Match(shape: shape.name, example: scratch.example[s],
                             score: Self.score(distance: scratch.distance[s]), threshold: shape.threshold))
        }
        return out.sorted { $0.score > $1.score }
    }

    /// Score of a distance, and back.
    @inlinable public static func score(distance: Double) -> Double { 1 - distance / Double.pi }
    @inlinable public static func distance(score: Double) -> Double { (1 - score) * Double.pi }

    /// What a distance is multiplied by for two strokes' total turnings (≥ 1). The exponent is
    /// taken in quarters (0, ¼, ½, ¾, 1, …: square roots, no `pow` in the standard library).
    @inlinable public static func turningFactor(_ a: Double, _ b: Double, exponent: Double) -> Double {
        let quarters = Int((exponent * 4).rounded())
        guard quarters > 0 else { return 1 }
        let x = Swift.max(a, leastTurning), y = Swift.max(b, leastTurning)
        let ratio = x > y ? x / y : y / x
        let half = ratio.squareRoot(), quarter = half.squareRoot()
        var f = 1.0
        for _ in 0..<(quarters / 4) { f *= ratio }
        if quarters % 4 >= 2 { f *= half }
        if quarters % 2 == 1 { f *= quarter }
        return f
    }

    /// Fills `scratch.distance` and `scratch.example` with each shape's nearest example.
    private func nearest(_ points: [Point], scratch: inout Scratch, acceptedOnly: Bool) {
        scratch.distance.removeAll(keepingCapacity: true)
        scratch.example.removeAll(keepingCapacity: true)
        for _ in shapes {
            scratch.distance.append(.infinity)
            scratch.example.append(-1)
        }
        guard points.count == ShapeExample.pointCount, !entries.isEmpty else { return }
        DirectionProfile.angles(of: points, rotate: false, into: &scratch.forward)
        if anyRotates {
            DirectionProfile.angles(of: points, rotate: true, into: &scratch.turned)
            DirectionProfile.angles(of: points, rotate: true, reversed: true, into: &scratch.turnedBack)
        }
        // Moved out of `scratch` (and back) rather than copied, so no buffer is duplicated.
        var distance: [Double] = [], example: [Int] = [], rows: [Double] = []
        swap(&distance, &scratch.distance)
        swap(&example, &scratch.example)
        swap(&rows, &scratch.rows)
        let (forward, turned, turnedBack) = (scratch.forward, scratch.turned, scratch.turnedBack)
        let n = Self.segments
        let turning = DirectionProfile.turning(forward[...])
        // The most a match may cost and still matter: the shape's threshold and, when only the
        // winner matters, the best accepted distance so far — most examples are abandoned early.
        var bestAccepted = Double.infinity
        rows.withUnsafeMutableBufferPointer { rows in
            let row = UnsafeMutableBufferPointer(rebasing: rows[0...n])
            let previous = UnsafeMutableBufferPointer(rebasing: rows[(n + 1)...])
            for (k, entry) in entries.enumerated() {
                let s = entry.shape
                let rotate = rotates[s]
                var limit = distance[s]
                if acceptedOnly { limit = min(limit, thresholdDistance[s], bestAccepted) }
                let range = (k * n)..<(k * n + n)
                let factor = Self.turningFactor(turning, turnings[k], exponent: turningExponent)
                limit /= factor
                var d = Double.infinity
                // A shape that may turn is tried as drawn and drawn backwards.
                for variant in 0..<(rotate ? 2 : 1) {
                    let profile = rotate ? (variant == 0 ? turned : turnedBack) : forward
                    let bound = min(d, limit)
                    d = min(d, profile.withUnsafeBufferPointer { p in
                        exampleDistance(p, at: range, bound: bound, row: row, previous: previous)
                    })
                }
                d *= factor
                if d < distance[s] {
                    distance[s] = d
                    example[s] = entry.example
                    if acceptedOnly && d <= thresholdDistance[s] { bestAccepted = min(bestAccepted, d) }
                }
            }
        }
        swap(&distance, &scratch.distance)
        swap(&example, &scratch.example)
        swap(&rows, &scratch.rows)
    }

    /// The distance from profile `p` to the example at `range` of `angles`, or infinity when it
    /// cannot beat `bound`: the envelope's bound first, a DTW only for an example that may.
    @inline(__always)
    private func exampleDistance(_ p: UnsafeBufferPointer<Double>, at range: Range<Int>, bound: Double,
                                 row: UnsafeMutableBufferPointer<Double>, previous: UnsafeMutableBufferPointer<Double>) -> Double {
        let n = Self.segments
        return angles.withUnsafeBufferPointer { all in
            envelopeCenter.withUnsafeBufferPointer { center in
                envelopeHalfWidth.withUnsafeBufferPointer { half in
                    let total = bound * Double(n)
                    if total < .infinity, DirectionProfile.lowerBound(
                        p, center: UnsafeBufferPointer(rebasing: center[range]),
                        halfWidth: UnsafeBufferPointer(rebasing: half[range]), limit: total) > total {
                        return .infinity
                    }
                    return DirectionProfile.distance(p, UnsafeBufferPointer(rebasing: all[range]), band: Self.band,
                                                     limit: bound, row: row, previous: previous)
                }
            }
        }
    }
}
