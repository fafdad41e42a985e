/// Long press: fingers held still for `min_duration` (UILongPressGestureRecognizer).
///
/// possible → began at touch-down + `min_duration` (through the deadline, so a finger that sends
/// no events while resting is still recognized on time) provided no finger moved more than
/// `max_movement_mm` and none lifted → ended when a finger lifts.
/// Fails on movement or a lift before `min_duration`.
///
/// Movement after recognition: by default the hold is over — libinput's hold gesture ends
/// "cancelled" when the fingers move, and so does this one once they move more than
/// `max_movement_mm` from where they touched down, so the stroke can still become a circle, a
/// swipe or a pan (the arena runs long press beside those). With `allow_drag = 1` movement is
/// reported as changed instead (press-and-drag, as in UIKit).
public final class LongPressRecognizer: GestureRecognizer {
    public static let spec = RecognizerSpec(
        name: "long_press", kind: .longPress,
        summary: "Fingers held still: began after min_duration, changed while dragged, ended on lift.",
        parameters: [
            Parameter("min_fingers", default: 1, range: 1...10, integer: true, summary: "Fewest fingers."),
            Parameter("max_fingers", default: 5, range: 1...10, integer: true, summary: "Most fingers."),
            Parameter("min_duration", default: 0.5, range: 0.1...10, unit: "s", summary: "Hold time."),
            Parameter("max_movement_mm", default: 4, range: 0...50, unit: "mm",
                      summary: "Movement allowed while holding."),
            Parameter("allow_drag", default: 0, range: 0...1, integer: true,
                      summary: "1: movement after recognition is press-and-drag (changed); 0: it cancels the hold."),
        ],
        make: { LongPressRecognizer(setup: $0) })

    public let name = "long_press"
    public let kind = GestureKind.longPress
    public private(set) var state = RecognizerState.possible

    let minFingers: Int
    let maxFingers: Int
    let minDuration: Double
    let maxMovementMM: Double
    let allowDrag: Bool
    private var group = ContactGroup()
    private var fingers = 0

    public init(setup: RecognizerSetup) {
        let p = setup.parameters
        minFingers = Int(p["min_fingers"])
        maxFingers = Int(p["max_fingers"])
        minDuration = p["min_duration"]
        maxMovementMM = p["max_movement_mm"]
        allowDrag = p["allow_drag"] != 0
    }

    public convenience init(_ overrides: [String: Double] = [:]) {
        self.init(setup: RecognizerSetup(parameters: ParameterValues(Self.spec.parameters, overrides: overrides)))
    }

    public var deadline: Double? {
        state == .possible && group.downCount > 0 ? group.firstTime + minDuration : nil
    }

    public func handle(_ frame: TouchFrame, events: inout [GestureEvent]) {
        guard !state.isFinished else { return }
        // A frame after the deadline: recognize first (as tick would have), then take the frame.
        if state == .possible, group.downCount > 0, frame.time >= group.firstTime + minDuration {
            tick(now: frame.time, events: &events)
            guard !state.isFinished else { return }
        }
        group.update(frame)
        switch state {
        case .possible:
            if group.maxDisplacementMM > maxMovementMM || group.anyLifted || group.maxDownCount > maxFingers {
                state = .failed
            }
        case .began, .changed:
            if group.anyLifted || group.downCount < fingers {
                state = .ended
                events.append(event(.ended, time: frame.time))
            } else if !allowDrag, group.maxDisplacementMM > maxMovementMM {
                state = .cancelled
                events.append(event(.cancelled, time: frame.time))
            } else if allowDrag, group.changedInLastFrame {
                state = .changed
                events.append(event(.changed, time: frame.time))
            }
        default:
            break
        }
    }

    public func tick(now: Double, events: inout [GestureEvent]) {
        guard state == .possible, group.downCount > 0 else { return }
        let due = group.firstTime + minDuration
        guard now >= due else { return }
        guard group.downCount >= minFingers else {
            state = .failed
            return
        }
        fingers = group.downCount
        state = .began
        events.append(event(.began, time: due))
    }

    private func event(_ phase: GesturePhase, time: Double) -> GestureEvent {
        var e = GestureEvent(kind: .longPress, phase: phase, time: time, fingers: fingers,
                             center: group.centroidPosition, centerMM: group.centroidMM)
        e.duration = time - group.firstTime
        e.translationMM = group.translationMM
        return e
    }

    public func cancel(time: Double, events: inout [GestureEvent]) {
        state.cancel(events: &events) { event(.cancelled, time: time) }
    }

    public func reset() {
        state = .possible
        group.removeAll()
        fingers = 0
    }
}
