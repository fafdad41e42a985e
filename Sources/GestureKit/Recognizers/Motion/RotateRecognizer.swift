/// Rotate: two or more fingers turning about their centroid (UIRotationGestureRecognizer).
/// `rotation` is in radians since touch-down, positive clockwise on screen, unwrapped.
/// Begins once the turn reaches `min_rotation_rad`.
public enum Rotate: TransformMeasure {
    public static let kind = GestureKind.rotate
    public static let summary = "Two or more fingers turning: rotation in radians, clockwise positive."
    public static let threshold = (key: "min_rotation_rad", was: String?("min_rotation"), default: 0.26, range: 0.0...3.2,
                                   summary: "Turn before the rotation begins (0.26 rad ≈ 15°).")

    public static func progress(of group: ContactGroup) -> Double {
        group.rotation < 0 ? -group.rotation : group.rotation
    }

    public static func fill(_ e: inout GestureEvent, from group: ContactGroup) { e.rotation = group.rotation }
}

public typealias RotateRecognizer = TransformRecognizer<Rotate>
