/// Long press: fingers held still for `min_duration` (UILongPressGestureRecognizer).
///
/// possible → began at touch-down + `min_duration` (through the deadline, so a finger that sends
/// no events while resting is still recognized on time) provided no finger moved more than
/// `max_movement_mm` and none lifted → changed when the fingers move afterwards (press-and-drag,
/// as in UIKit: the slop only applies before recognition) → ended when a finger lifts.
/// Fails on movement or a lift before `min_duration`.
public final class LongPressRecognizer: GestureRecognizer {
    public static let spec = RecognizerSpec(
        name: "long_press", kind: .longPress,
        summary: "Fingers held still: began after min_duration, changed while dragged, ended on lift.",
        parameters: [
            Parameter("min_fingers", default: 1, range: 1...10, integer: true, summary: "Fewest fingers."),
            Parameter("max_fingers", default: 5, range: 1...10, integer: true, summary: "Most fingers."),
            Parameter("min_duration", default: 0.5, range: 0.1...10, unit: "s", summary: "Hold time."),
            Parameter("max_movement_mm", default: 4, range: 0...50, unit: "mm",
                      summary: "Movement allowed before the press is recognized."),
        ],
        make: { LongPressRecognizer(setup: $0) })

    public let name = "long_press"
    public let kind = GestureKind.longPress
    public private(set) var state = RecognizerState.possible

    let minFingers: Int
    let maxFingers: Int
    let minDuration: Double
    let maxMovementMM: Double
    private var group = ContactGroup()
    private var fingers = 0

    public init(setup: RecognizerSetup) {
        let p = setup.parameters
        minFingers = Int(p["min_fingers"])
        maxFingers = Int(p["max_fingers"])
        minDuration = p["min_duration"]
        maxMovementMM = p["max_movement_mm"]
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
            } else if group.changedInLastFrame {
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
        if state.isActive {
            events.append(event(.cancelled, time: time))
            state = .cancelled
        } else if !state.isFinished {
            state = .failed
        }
    }

    public func reset() {
        state = .possible
        group.removeAll()
        fingers = 0
    }
}
