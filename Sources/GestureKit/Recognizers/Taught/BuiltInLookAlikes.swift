/// Which built-in shape recognizers (circle, checkmark) would take a taught shape's examples, for
/// `learn`'s report: both decide before the taught shapes in the arena, so with a circle or
/// checkmark binding on the device a taught stroke they accept is reported as theirs. Their
/// rules give a verdict, not a score comparable with a taught threshold, so the report says
/// which examples they take rather than by how much.
public enum BuiltInLookAlikes {
    /// Examples are stored without their size (longer side 1); they are tried at this size,
    /// a finger's stroke on a phone-to-tablet panel (the corpus's strokes: 20–80 mm).
    public static let sizeMM = 40.0

    public struct Taken: Sendable, Equatable {
        /// "circle" or "checkmark" (the gesture's name in a binding).
        public var recognizer: String
        /// 1-based, as `learn` numbers examples.
        public var examples: [Int]
    }

    /// The built-in recognizers that take one or more of `shape`'s examples, with their rules.
    public static func of(_ shape: TaughtShape, circle: CircleRules = CircleRules(), checkmark: CheckmarkRules = CheckmarkRules()) -> [Taken] {
        var circles: [Int] = [], checks: [Int] = []
        var resampled: [Point] = []
        for (i, example) in shape.examples.enumerated() {
            var stroke = Stroke(capacity: example.points.count)
            for p in example.points { stroke.append(mm: p * sizeMM, position: p * sizeMM) }
            stroke.resample(count: CircleRecognizer.samples, into: &resampled)
            if CircleAnalysis.analyze(resampled, rules: circle).isRecognized { circles.append(i + 1) }
            stroke.resample(count: CheckmarkRecognizer.samples, into: &resampled)
            if CheckmarkAnalysis.analyze(resampled, rules: checkmark).isRecognized { checks.append(i + 1) }
        }
        return [Taken(recognizer: "circle", examples: circles), Taken(recognizer: "checkmark", examples: checks)].filter { !$0.examples.isEmpty }
    }
}
