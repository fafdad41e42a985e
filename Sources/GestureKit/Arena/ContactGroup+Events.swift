/// What recognizers built on one contact group ask of it besides its motion: when a rule timed
/// from the first touch falls due, and events placed where the group is or where it began.
extension ContactGroup {
    /// `firstTime + interval` while a finger is down; nil when none is (nothing can fall due).
    /// The deadline of every rule timed from touch-down: a swipe's longest duration, a long
    /// press's hold, a tap's longest touch.
    func deadline(after interval: Double) -> Double? {
        downCount > 0 ? firstTime + interval : nil
    }

    /// An event at the group's centroid now, for a continuous gesture (pan, pinch, rotate,
    /// long press).
    func event(_ kind: GestureKind, _ phase: GesturePhase, time: Double, fingers: Int) -> GestureEvent {
        GestureEvent(kind: kind, phase: phase, time: time, fingers: fingers,
                     center: centroidPosition, centerMM: centroidMM)
    }

    /// A stroke's `recognized` event, placed where the stroke began, with what the whole stroke
    /// did: the most fingers down at once, distance, mean speed and velocity, duration (swipe,
    /// edge swipe).
    func strokeEvent(_ kind: GestureKind, time: Double) -> GestureEvent {
        var e = GestureEvent(kind: kind, phase: .recognized, time: time, fingers: maxDownCount,
                             center: startCentroidPosition, centerMM: startCentroidMM)
        let d = translationMM
        let seconds = max(duration, 1e-3)
        e.distanceMM = d.length
        e.speedMM = d.length / seconds
        e.velocityMM = d / seconds
        e.duration = duration
        return e
    }
}
