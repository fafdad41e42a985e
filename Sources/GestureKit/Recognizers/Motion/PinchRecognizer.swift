/// Pinch: two or more fingers moving apart or together (UIPinchGestureRecognizer).
/// `scale` is the mean distance of the fingers to their centroid relative to touch-down
/// (1 = unchanged). Begins once that distance changed by `slop_mm`.
public final class PinchRecognizer: TransformRecognizer, DeclaredRecognizer {
    public static let kind = GestureKind.pinch
    public static let summary = "Two or more fingers spreading or closing: scale."

    public let rules: PinchRules

    public init(rules: PinchRules, context: RecognizerContext) {
        self.rules = rules
        super.init(kind: Self.kind, minFingers: rules.minFingers, maxFingers: rules.maxFingers)
    }

    override func passedThreshold() -> Bool {
        // The spread at touch-down is the current spread divided by the accumulated scale.
        let change = group.spreadMM - group.spreadMM / group.scale
        return (change < 0 ? -change : change) >= rules.slopMM
    }

    override func fill(_ e: inout GestureEvent) { e.scale = group.scale }
}

/// What a pinch is tuned by (the config's `[device.pinch]`).
public struct PinchRules: RecognizerRules {
    public var minFingers = 2
    public var maxFingers = 10
    public var slopMM = 5.0

    public init() {}

    public static let parameters = Parameter<Self>.fingers(\.minFingers, \.maxFingers, range: 2...10) + [
        Parameter("slop_mm", \.slopMM, range: 0...100,
                  "Change of the fingers' mean distance to their centroid before the pinch begins."),
    ]
}
