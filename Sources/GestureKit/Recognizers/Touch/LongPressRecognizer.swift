/// Long press: fingers held still for `min_duration_s` (UILongPressGestureRecognizer).
///
/// possible → began at touch-down + `min_duration_s` (through the deadline, so a finger that sends
/// no events while resting is still recognized on time) provided no finger moved more than
/// `max_movement_mm` and none lifted → ended when a finger lifts.
/// Fails on movement or a lift before `min_duration_s`.
///
/// Movement after recognition: by default the hold is over — libinput's hold gesture ends
/// "cancelled" when the fingers move, and so does this one once they move more than
/// `max_movement_mm` from where they touched down, so the stroke can still become a circle, a
/// swipe or a pan (the arena runs long press beside those). With `allow_drag = 1` movement is
/// reported as changed instead (press-and-drag, as in UIKit).
public final class LongPressRecognizer: DeclaredRecognizer, ChangeReporting, GroupReader {
    public static let kind = GestureKind.longPress
    public static let summary = "Fingers held still: began after min_duration_s, changed while dragged, ended on lift."

    public let rules: LongPressRules

    public private(set) var state = RecognizerState.possible
    public var reportsChanges = true

    /// Its context when it is handed frames itself (FrameContext).
    public let own = ReaderContext()
    private var fingers = 0

    public init(rules: LongPressRules, context: RecognizerContext) {
        self.rules = rules
    }

    public func deadline(in context: borrowing FrameContext) -> Double? {
        state == .possible ? context.group.deadline(after: rules.minDuration) : nil
    }

    /// On its own, its context takes the frame; one after the deadline recognizes first (as a
    /// tick would have: the arena fires deadlines before its context takes a frame). A hold that
    /// has ended, cancelled or failed returns at once, here and in the arena's call: the arena
    /// may still feed it (a hold cancelled by movement stays fed to the end of a swipe), and
    /// `follow`'s stack frame is not set up before the state is read (speed:
    /// docs/architecture.md).
    public func handle(_ frame: TouchFrame, events: inout [GestureEvent]) {
        guard !state.isFinished else { return }
        if state == .possible, own.context.group.downCount > 0, frame.time >= own.context.group.firstTime + rules.minDuration {
            tick(now: frame.time, events: &events)
            guard !state.isFinished else { return }
        }
        own.take(frame)
        follow(frame, own.context, events: &events)
    }

    /// A frame changes it until it has finished (GroupReader).
    public var followsFrames: Bool { !state.isFinished }

    @inline(never)
    public func follow(_ frame: TouchFrame, _ context: borrowing FrameContext, events: inout [GestureEvent]) {
        switch state {
        case .possible:
            if context.group.maxDisplacementMM > rules.maxMovementMM || context.group.anyLifted
                || context.group.maxDownCount > rules.maxFingers {
                state = .failed
            }
        case .began, .changed:
            if context.group.anyLifted || context.group.downCount < fingers {
                state = .ended
                events.append(event(.ended, context, time: frame.time))
            } else if !rules.allowDrag, context.group.maxDisplacementMM > rules.maxMovementMM {
                state = .cancelled
                events.append(event(.cancelled, context, time: frame.time))
            } else if rules.allowDrag, context.group.changedInLastFrame {
                state = .changed
                if reportsChanges { events.append(event(.changed, context, time: frame.time)) }
            }
        default:
            break
        }
    }

    public func tick(now: Double, in context: borrowing FrameContext, events: inout [GestureEvent]) {
        guard state == .possible, context.group.downCount > 0 else { return }
        let due = context.group.firstTime + rules.minDuration
        guard now >= due else { return }
        guard context.group.downCount >= rules.minFingers else {
            state = .failed
            return
        }
        fingers = context.group.downCount
        state = .began
        events.append(event(.began, context, time: due))
    }

    private func event(_ phase: GesturePhase, _ context: borrowing FrameContext, time: Double) -> GestureEvent {
        var e = context.group.event(.longPress, phase, time: time, fingers: fingers)
        e.duration = time - context.group.firstTime
        e.translationMM = context.group.translationMM
        return e
    }

    public func cancel(time: Double, in context: borrowing FrameContext, events: inout [GestureEvent]) {
        state.cancel(events: &events) { event(.cancelled, context, time: time) }
    }

    public func reset() {
        state = .possible
        own.clear()
        fingers = 0
    }
}

/// What a long press is tuned by (the config's `[device.long_press]`).
public struct LongPressRules: RecognizerRules {
    public var minFingers = 1
    public var maxFingers = 5
    public var minDuration = 0.5
    public var maxMovementMM = 4.0
    public var allowDrag = false

    public init() {}

    public static let parameters = Parameter<Self>.fingers(\.minFingers, \.maxFingers, range: 1...10) + [
        Parameter("min_duration_s", \.minDuration, range: 0.1...10, was: "min_duration", "Hold time."),
        Parameter("max_movement_mm", \.maxMovementMM, range: 0...50, "Movement allowed while holding."),
        Parameter("allow_drag", \.allowDrag,
                  "With 1, movement after recognition is press-and-drag (changed); with 0 it cancels the hold."),
    ]
}
