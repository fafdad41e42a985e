/// A shape an operator taught by example (`gestured learn`): its name, its examples, and how
/// strictly a stroke must match them.
public struct TaughtShape: Sendable, Equatable {
    /// The least score a stroke needs to be this shape (score = 1 − mean direction mismatch / π,
    /// see ShapeMatcher) when its examples cannot calibrate one (ShapeCalibration: a single
    /// example). Chosen leave-one-subject-out on five people's strokes so that fewer than 0.25 %
    /// of strokes are taken for a shape they are not, with every stroke of four people as the
    /// examples (the most examples, so the nearest wrong one is nearest; docs/recognition.md):
    /// 0.915–0.920, of which the strict end.
    public static let defaultThreshold = 0.920

    /// Where a shape's threshold comes from (`learn` and `check-config` say).
    public enum ThresholdOrigin: String, Sendable {
        /// From its examples and the other shapes' (ShapeCalibration), when it was learned or loaded.
        case calibrated
        /// By the operator: `[shapes.NAME] threshold`.
        case set
        /// TaughtShape.defaultThreshold: too few examples to calibrate from.
        case `default`
    }

    /// Shape names are config keys and file names: letters, digits, '_' and '-'.
    public static func isValidName(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= 64 else { return false }
        return name.utf8.allSatisfy { c in
            (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c == 0x5f || c == 0x2d
        }
    }

    public var name: String
    public var examples: [ShapeExample]
    public var threshold: Double
    public var thresholdOrigin: ThresholdOrigin
    /// false (the default): orientation and drawing direction matter — a V is not a caret, a
    /// left brace is not a right one. true: the stroke may be drawn turned or backwards.
    public var rotate: Bool

    public init(name: String, examples: [ShapeExample], threshold: Double = TaughtShape.defaultThreshold,
                thresholdOrigin: ThresholdOrigin = .default, rotate: Bool = false) {
        self.name = name
        self.examples = examples
        self.threshold = threshold
        self.thresholdOrigin = thresholdOrigin
        self.rotate = rotate
    }
}

/// One taught stroke: its path normalized (centroid at 0, longer side of its box 1, y down,
/// evenly spaced along its length), where it came from and when.
public struct ShapeExample: Sendable, Equatable {
    /// How many points a stroke is resampled to, for storing and for matching. 64 rather than 32:
    /// a short detail (a brace's nub, a corner) then spans pieces of its own instead of being
    /// averaged into one (docs/recognition.md: shapes taught by other people found 95.9 % of the time
    /// instead of 95.0 %, leave-one-subject-out, at fewer false reports).
    public static let pointCount = 64

    public var points: [Point]
    /// The recording (and stroke number) or device it was drawn on.
    public var source: String
    /// UTC, ISO 8601.
    public var date: String
    /// Who drew it (`learn --person`; a shape name's characters), "" when not said: the
    /// calibration measures how differently people draw the shape from examples of several
    /// (ShapeCalibration.across).
    public var person: String

    public init(points: [Point], source: String, date: String, person: String = "") {
        self.points = points
        self.source = source
        self.date = date
        self.person = person
    }

    /// An example from a stroke's millimetre path.
    public init(stroke: Stroke, source: String, date: String, person: String = "") {
        var resampled: [Point] = []
        stroke.resample(count: Self.pointCount, into: &resampled)
        self.init(points: Self.normalized(resampled), source: source, date: date, person: person)
    }

    /// Centroid to the origin, the longer side of the bounding box to 1 (aspect kept: a tall
    /// and a wide rectangle stay different), rounded to 1/1000 so files stay short and diffable.
    public static func normalized(_ points: [Point]) -> [Point] {
        guard !points.isEmpty else { return [] }
        var c = Point.zero
        var box = Rect.empty
        for p in points {
            c += p
            box.include(p)
        }
        c = c / Double(points.count)
        let side = max(box.width, box.height)
        let k = side > 0 ? 1 / side : 1
        return points.map { p in
            let q = (p - c) * k
            return Point(x: (q.x * 1000).rounded() / 1000, y: (q.y * 1000).rounded() / 1000)
        }
    }
}
