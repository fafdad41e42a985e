/// What pinch and rotate share: two or more fingers, a threshold on one measure of the group's
/// transform (scale or rotation) to begin, `changed` while the fingers move, `ended` when fewer
/// than two remain. The measure is accumulated frame by frame (ContactGroup), so a finger
/// landing or lifting does not make it jump, and rotation is unwrapped (it can exceed ±π).
public class TransformRecognizer {
    public let kind: GestureKind
    public private(set) var state = RecognizerState.possible
    public var deadline: Double? { nil }

    let minFingers: Int
    let maxFingers: Int
    var group = ContactGroup()
    private var fingers = 0

    init(kind: GestureKind, minFingers: Int, maxFingers: Int) {
        self.kind = kind
        self.minFingers = minFingers
        self.maxFingers = maxFingers
    }

    /// Whether the measure passed its threshold (overridden).
    func passedThreshold() -> Bool { false }
    /// Adds the measure to an event (overridden).
    func fill(_ e: inout GestureEvent) {}

    public func handle(_ frame: TouchFrame, events: inout [GestureEvent]) {
        guard !state.isFinished else { return }
        group.update(frame)
        if group.downCount > 0 { fingers = group.downCount }
        switch state {
        case .possible:
            if group.downCount == 0 {
                state = .failed
            } else if group.maxDownCount > maxFingers {
                state = .failed
            } else if group.downCount >= minFingers, passedThreshold() {
                state = .began
                events.append(event(.began, time: frame.time))
            }
        case .began, .changed:
            if group.downCount < 2 {
                state = .ended
                events.append(event(.ended, time: frame.time))
            } else if group.changedInLastFrame {
                state = .changed
                events.append(event(.changed, time: frame.time))
            }
        default:
            break
        }
    }

    func event(_ phase: GesturePhase, time: Double) -> GestureEvent {
        var e = GestureEvent(kind: kind, phase: phase, time: time, fingers: fingers,
                             center: group.centroidPosition, centerMM: group.centroidMM)
        fill(&e)
        return e
    }

    public func tick(now: Double, events: inout [GestureEvent]) {}

    public func cancel(time: Double, events: inout [GestureEvent]) {
        state.cancel(events: &events) { event(.cancelled, time: time) }
    }

    public func reset() {
        state = .possible
        group.removeAll()
        fingers = 0
    }
}
