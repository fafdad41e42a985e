import GestureKit

/// Gesture data for a bound command, as environment variables: the command reads values, the
/// daemon never pastes them into a command string.
enum GestureEnvironment {
    static func variables(_ e: GestureEvent, device: DeviceLabel, steps: Int?) -> [(String, String)] {
        var v: [(String, String)] = [
            ("GESTURE_NAME", e.kind.rawValue),
            ("GESTURE_PHASE", e.phase.rawValue),
            ("GESTURE_X", num(e.center.x)),
            ("GESTURE_Y", num(e.center.y)),
            ("GESTURE_X_MM", num(e.centerMM.x)),
            ("GESTURE_Y_MM", num(e.centerMM.y)),
            ("GESTURE_FINGERS", String(e.fingers)),
            ("GESTURE_DIRECTION", e.direction?.rawValue ?? ""),
            ("GESTURE_REGION", e.region ?? ""),
            ("GESTURE_DEVICE", device.name),
            ("GESTURE_DEVICE_ID", device.id),
            ("GESTURE_TIME", num(e.time)),
        ]
        func add(_ name: String, _ x: Double?) { if let x { v.append((name, num(x))) } }
        add("GESTURE_RADIUS_MM", e.radiusMM)
        add("GESTURE_FIT_ERROR", e.fitError)
        add("GESTURE_TURNS", e.turns)
        if let r = e.reversals { v.append(("GESTURE_REVERSALS", String(r))) }
        if let s = e.shape { v.append(("GESTURE_SHAPE", s)) }
        add("GESTURE_SCORE", e.score)
        add("GESTURE_TRANSLATION_X_MM", e.translationMM?.x)
        add("GESTURE_TRANSLATION_Y_MM", e.translationMM?.y)
        add("GESTURE_VELOCITY_X_MM", e.velocityMM?.x)
        add("GESTURE_VELOCITY_Y_MM", e.velocityMM?.y)
        add("GESTURE_REST_X", e.restingPoint?.x)
        add("GESTURE_REST_Y", e.restingPoint?.y)
        add("GESTURE_SCALE", e.scale)
        add("GESTURE_ROTATION", e.rotation)
        add("GESTURE_ROTATION_DEG", e.rotation.map { $0 * 180 / Double.pi })
        add("GESTURE_DISTANCE_MM", e.distanceMM)
        add("GESTURE_SPEED_MM", e.speedMM)
        if let edge = e.edge { v.append(("GESTURE_EDGE", edge.rawValue)) }
        if let c = e.tapCount { v.append(("GESTURE_COUNT", String(c))) }
        add("GESTURE_DURATION", e.duration)
        if let s = steps { v.append(("GESTURE_STEPS", String(s))) }
        return v
    }

    private static func num(_ x: Double) -> String { DecimalText.string(x, places: 6) }
}
