/// Rotate: two or more fingers turning about their centroid (UIRotationGestureRecognizer).
/// `rotation` is in radians since touch-down, positive clockwise on screen, unwrapped.
/// Begins once the turn reaches `min_rotation`.
public final class RotateRecognizer: TransformRecognizer, GestureRecognizer {
    public static let spec = RecognizerSpec(
        name: "rotate", kind: .rotate,
        summary: "Two or more fingers turning: rotation in radians, clockwise positive.",
        parameters: [
            Parameter("min_fingers", default: 2, range: 2...10, integer: true, summary: "Fewest fingers."),
            Parameter("max_fingers", default: 10, range: 2...10, integer: true, summary: "Most fingers."),
            Parameter("min_rotation", default: 0.26, range: 0...3.2, unit: "rad",
                      summary: "Turn before the rotation begins (0.26 rad ≈ 15°)."),
        ],
        make: { RotateRecognizer(setup: $0) })

    let minRotation: Double

    public init(setup: RecognizerSetup) {
        minRotation = setup.parameters["min_rotation"]
        super.init(kind: .rotate, minFingers: Int(setup.parameters["min_fingers"]),
                   maxFingers: Int(setup.parameters["max_fingers"]))
    }

    public convenience init(_ overrides: [String: Double] = [:]) {
        self.init(setup: RecognizerSetup(parameters: ParameterValues(Self.spec.parameters, overrides: overrides)))
    }

    override func passedThreshold() -> Bool {
        (group.rotation < 0 ? -group.rotation : group.rotation) >= minRotation
    }

    override func fill(_ e: inout GestureEvent) { e.rotation = group.rotation }
}
