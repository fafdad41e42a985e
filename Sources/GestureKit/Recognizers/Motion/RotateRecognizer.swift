/// Rotate: two or more fingers turning about their centroid (UIRotationGestureRecognizer).
/// `rotation` is in radians since touch-down, positive clockwise on screen, unwrapped.
/// Begins once the turn reaches `min_rotation_rad`.
public final class RotateRecognizer: TransformRecognizer, DeclaredRecognizer {
    public static let kind = GestureKind.rotate
    public static let summary = "Two or more fingers turning: rotation in radians, clockwise positive."

    public let rules: RotateRules

    public init(rules: RotateRules, context: RecognizerContext) {
        self.rules = rules
        super.init(kind: Self.kind, minFingers: rules.minFingers, maxFingers: rules.maxFingers)
    }

    override func passedThreshold() -> Bool {
        (group.rotation < 0 ? -group.rotation : group.rotation) >= rules.minRotation
    }

    override func fill(_ e: inout GestureEvent) { e.rotation = group.rotation }
}

/// What a rotation is tuned by (the config's `[device.rotate]`).
public struct RotateRules: RecognizerRules {
    public var minFingers = 2
    public var maxFingers = 10
    public var minRotation = 0.26

    public init() {}

    public static let parameters = Parameter<Self>.fingers(\.minFingers, \.maxFingers, range: 2...10) + [
        Parameter("min_rotation_rad", \.minRotation, range: 0...3.2, was: "min_rotation",
                  "Turn before the rotation begins (0.26 rad ≈ 15°)."),
    ]
}
