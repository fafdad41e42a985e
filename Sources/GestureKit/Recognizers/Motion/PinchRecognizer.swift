/// Pinch: two or more fingers moving apart or together (UIPinchGestureRecognizer).
/// `scale` is the mean distance of the fingers to their centroid relative to touch-down
/// (1 = unchanged). Begins once that distance changed by `slop_mm`.
public final class PinchRecognizer: TransformRecognizer, GestureRecognizer {
    public static let spec = RecognizerSpec(
        name: "pinch", kind: .pinch,
        summary: "Two or more fingers spreading or closing: scale.",
        parameters: [
            Parameter("min_fingers", default: 2, range: 2...10, integer: true, summary: "Fewest fingers."),
            Parameter("max_fingers", default: 10, range: 2...10, integer: true, summary: "Most fingers."),
            Parameter("slop_mm", default: 5, range: 0...100, unit: "mm",
                      summary: "Change of the fingers' mean distance to their centroid before the pinch begins."),
        ],
        make: { PinchRecognizer(setup: $0) })

    let slopMM: Double

    public init(setup: RecognizerSetup) {
        let p = setup.parameters
        slopMM = p["slop_mm"]
        super.init(kind: .pinch, minFingers: Int(p["min_fingers"]), maxFingers: Int(p["max_fingers"]))
    }

    public convenience init(_ overrides: [String: Double] = [:]) {
        self.init(setup: RecognizerSetup(parameters: ParameterValues(Self.spec.parameters, overrides: overrides)))
    }

    override func passedThreshold() -> Bool {
        // The spread at touch-down is the current spread divided by the accumulated scale.
        let change = group.spreadMM - group.spreadMM / group.scale
        return (change < 0 ? -change : change) >= slopMM
    }

    override func fill(_ e: inout GestureEvent) { e.scale = group.scale }
}
