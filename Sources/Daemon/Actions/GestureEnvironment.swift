import GestureKit

/// Gesture data for a bound command, as environment variables: the command reads values, the
/// daemon never pastes them into a command string.
enum GestureEnvironment {
    /// More than the entries `variables` writes (33): what the spawner makes room for.
    static let maxEntries = 40

    /// Each variable as `NAME=value` and a NUL, one after the other in one buffer: what the
    /// spawner points the command's environment into, with no String made (speed:
    /// docs/architecture.md).
    static func variables(_ e: GestureEvent, device: DeviceLabel, steps: Int?) -> [UInt8] {
        let direction = e.direction?.rawValue ?? ""
        let region = e.region ?? ""
        // Every fixed name with its `=`, a number or a keyword and its NUL fits in 64 bytes;
        // the free-form texts (device, region, shape) are counted.
        let capacity = maxEntries * 64 + device.name.utf8.count + device.id.utf8.count + region.utf8.count + (e.shape?.utf8.count ?? 0)
        return ByteWriter.bytes(capacity: capacity) { w in
            func add(_ name: StaticString, _ text: String) {
                w.write(name)
                w.writeCString(text)
                w.write(byte: 0)
            }
            func add(_ name: StaticString, _ x: Double?) {
                guard let x else { return }
                w.write(name)
                w.write(x, places: 6)
                w.write(byte: 0)
            }
            func add(_ name: StaticString, _ n: Int?) {
                guard let n else { return }
                w.write(name)
                w.write(n)
                w.write(byte: 0)
            }
            add("GESTURE_NAME=", e.kind.rawValue)
            add("GESTURE_PHASE=", e.phase.rawValue)
            add("GESTURE_X=", e.center.x)
            add("GESTURE_Y=", e.center.y)
            add("GESTURE_X_MM=", e.centerMM.x)
            add("GESTURE_Y_MM=", e.centerMM.y)
            add("GESTURE_FINGERS=", e.fingers)
            add("GESTURE_DIRECTION=", direction)
            add("GESTURE_REGION=", region)
            add("GESTURE_DEVICE=", device.name)
            add("GESTURE_DEVICE_ID=", device.id)
            add("GESTURE_TIME=", e.time)
            add("GESTURE_RADIUS_MM=", e.radiusMM)
            add("GESTURE_FIT_ERROR=", e.fitError)
            add("GESTURE_TURNS=", e.turns)
            add("GESTURE_REVERSALS=", e.reversals)
            if let s = e.shape { add("GESTURE_SHAPE=", s) }
            add("GESTURE_SCORE=", e.score)
            add("GESTURE_TRANSLATION_X_MM=", e.translationMM?.x)
            add("GESTURE_TRANSLATION_Y_MM=", e.translationMM?.y)
            add("GESTURE_VELOCITY_X_MM=", e.velocityMM?.x)
            add("GESTURE_VELOCITY_Y_MM=", e.velocityMM?.y)
            add("GESTURE_REST_X=", e.restingPoint?.x)
            add("GESTURE_REST_Y=", e.restingPoint?.y)
            add("GESTURE_SCALE=", e.scale)
            add("GESTURE_ROTATION=", e.rotation)
            add("GESTURE_ROTATION_DEG=", e.rotation.map { $0 * 180 / Double.pi })
            add("GESTURE_DISTANCE_MM=", e.distanceMM)
            add("GESTURE_SPEED_MM=", e.speedMM)
            if let edge = e.edge { add("GESTURE_EDGE=", edge.rawValue) }
            add("GESTURE_COUNT=", e.tapCount)
            add("GESTURE_DURATION=", e.duration)
            add("GESTURE_STEPS=", steps)
        }
    }
}
