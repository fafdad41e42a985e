import GestureKit

/// Gesture data for a bound command, as environment variables: the command reads values, the
/// daemon never pastes them into a command string.
enum GestureEnvironment {
    /// Each variable as `NAME=value`, what the command's environment takes. Written byte by byte
    /// into one buffer: (name, value) pairs of Strings joined afterwards cost ~18,000
    /// instructions more per command (host callgrind, 2026-11-26).
    static func variables(_ e: GestureEvent, device: DeviceLabel, steps: Int?) -> [String] {
        var v: [String] = []
        v.reserveCapacity(40)
        var line: [UInt8] = []
        line.reserveCapacity(128)
        func start(_ name: StaticString) {
            line.removeAll(keepingCapacity: true)
            line.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
            line.append(UInt8(ascii: "="))
        }
        func add(_ name: StaticString, _ text: String) {
            start(name)
            line.append(contentsOf: text.utf8)
            v.append(String(decoding: line, as: UTF8.self))
        }
        func add(_ name: StaticString, _ x: Double?) {
            guard let x else { return }
            start(name)
            DecimalText.append(x, places: 6, to: &line)
            v.append(String(decoding: line, as: UTF8.self))
        }
        func add(_ name: StaticString, _ n: Int?) {
            guard let n else { return }
            start(name)
            DecimalText.appendInteger(Int64(n), to: &line)
            v.append(String(decoding: line, as: UTF8.self))
        }
        add("GESTURE_NAME", e.kind.rawValue)
        add("GESTURE_PHASE", e.phase.rawValue)
        add("GESTURE_X", e.center.x)
        add("GESTURE_Y", e.center.y)
        add("GESTURE_X_MM", e.centerMM.x)
        add("GESTURE_Y_MM", e.centerMM.y)
        add("GESTURE_FINGERS", e.fingers)
        add("GESTURE_DIRECTION", e.direction?.rawValue ?? "")
        add("GESTURE_REGION", e.region ?? "")
        add("GESTURE_DEVICE", device.name)
        add("GESTURE_DEVICE_ID", device.id)
        add("GESTURE_TIME", e.time)
        add("GESTURE_RADIUS_MM", e.radiusMM)
        add("GESTURE_FIT_ERROR", e.fitError)
        add("GESTURE_TURNS", e.turns)
        add("GESTURE_REVERSALS", e.reversals)
        if let s = e.shape { add("GESTURE_SHAPE", s) }
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
        if let edge = e.edge { add("GESTURE_EDGE", edge.rawValue) }
        add("GESTURE_COUNT", e.tapCount)
        add("GESTURE_DURATION", e.duration)
        add("GESTURE_STEPS", steps)
        return v
    }
}
