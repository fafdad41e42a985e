/// One measure of a group's transform that a recognizer follows (Pinch: scale, Rotate:
/// rotation): its recognizer's kind and summary, the threshold it begins at, what it reports.
public protocol TransformMeasure: Sendable {
    static var kind: GestureKind { get }
    static var summary: String { get }
    /// The threshold's config key (with its unit), its key before a rename, default, range and summary.
    static var threshold: (key: String, was: String?, default: Double, range: ClosedRange<Double>, summary: String) { get }
    /// How far the group has gone on this measure since touch-down (compared with the threshold).
    static func progress(of group: ContactGroup) -> Double
    /// Adds the measure to an event.
    static func fill(_ e: inout GestureEvent, from group: ContactGroup)
}

/// What pinch and rotate share: two or more fingers, a threshold on one measure of the group's
/// transform (scale or rotation) to begin, `changed` while the fingers move, `ended` when fewer
/// than two remain. The measure is accumulated frame by frame (ContactGroup), so a finger
/// landing or lifting does not make it jump, and rotation is unwrapped (it can exceed ±π).
public final class TransformRecognizer<Measure: TransformMeasure>: DeclaredRecognizer, UntimedRecognizer, ChangeReporting,
    MultiContactRecognizer {
    public static var kind: GestureKind { Measure.kind }
    public static var summary: String { Measure.summary }
    public private(set) var state = RecognizerState.possible
    public var reportsChanges = true

    public let rules: TransformRules<Measure>
    private var group = ContactGroup()
    private var fingers = 0

    public init(rules: TransformRules<Measure>, context: RecognizerContext) { self.rules = rules }

    public func handle(_ frame: TouchFrame, events: inout [GestureEvent]) {
        guard !state.isFinished else { return }
        // One finger alone since the sequence began: scale and rotation are measured over
        // contacts common to consecutive frames, two at least, so there is nothing to measure
        // yet and the group starts with the frame that brings a second contact. The finger
        // lifting alone fails it, as an empty group would.
        if group.isEmpty, frame.contacts.count == 1 {
            if !frame.contacts[0].phase.isDown { state = .failed }
            return
        }
        group.update(frame)
        if group.downCount > 0 { fingers = group.downCount }
        switch state {
        case .possible:
            if group.downCount == 0 {
                state = .failed
            } else if group.maxDownCount > rules.maxFingers {
                state = .failed
            } else if group.downCount >= rules.minFingers, Measure.progress(of: group) >= rules.threshold {
                state = .began
                events.append(event(.began, time: frame.time))
            }
        case .began, .changed:
            if group.downCount < 2 {
                state = .ended
                events.append(event(.ended, time: frame.time))
            } else if group.changedInLastFrame {
                state = .changed
                if reportsChanges { events.append(event(.changed, time: frame.time)) }
            }
        default:
            break
        }
    }

    private func event(_ phase: GesturePhase, time: Double) -> GestureEvent {
        var e = group.event(Measure.kind, phase, time: time, fingers: fingers)
        Measure.fill(&e, from: group)
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

/// What a pinch or a rotation is tuned by (`[device.pinch]`, `[device.rotate]`).
public struct TransformRules<Measure: TransformMeasure>: RecognizerRules {
    public var minFingers = 2
    public var maxFingers = 10
    /// In the unit of the measure's key: change of spread (mm), turn (rad).
    public var threshold = Measure.threshold.default

    public init() {}

    public static var parameters: [Parameter<Self>] {
        let t = Measure.threshold
        return Parameter.fingers(\.minFingers, \.maxFingers, range: 2...10)
            + [Parameter(t.key, \.threshold, range: t.range, was: t.was, t.summary)]
    }
}
