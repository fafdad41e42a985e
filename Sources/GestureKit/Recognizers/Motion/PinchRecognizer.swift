/// Pinch: two or more fingers moving apart or together (UIPinchGestureRecognizer).
/// `scale` is the mean distance of the fingers to their centroid relative to touch-down
/// (1 = unchanged). Begins once that distance changed by `slop_mm`.
public enum Pinch: TransformMeasure {
    public static let kind = GestureKind.pinch
    public static let summary = "Two or more fingers spreading or closing: scale."
    public static let threshold = (key: "slop_mm", was: String?.none, default: 5.0, range: 0.0...100,
                                   summary: "Change of the fingers' mean distance to their centroid before the pinch begins.")

    public static func progress(of group: ContactGroup) -> Double {
        // The spread at touch-down is the current spread divided by the accumulated scale.
        let change = group.spreadMM - group.spreadMM / group.scale
        return change < 0 ? -change : change
    }

    public static func fill(_ e: inout GestureEvent, from group: ContactGroup) { e.scale = group.scale }
}

public typealias PinchRecognizer = TransformRecognizer<Pinch>
