/// What the one-finger shapes (circle, checkmark, tickle, taught shapes) share: they follow one
/// finger into a `Stroke` (SingleFinger's rules), fail on a second finger, end `cancelled` when
/// the touches are, and decide when the finger lifts (`lifted`) or, for a shape that can tell
/// while the finger is down, as it moves (`moved`). They have no timers
/// (`UntimedRecognizer`).
public class StrokeRecognizer {
    public internal(set) var state = RecognizerState.possible
    public let regions: [Region]
    /// The finger's path (kept until `reset`, so a trace can show it).
    public private(set) var stroke = Stroke()
    /// The stroke resampled to `samples` evenly spaced points at lift, for shapes decided from
    /// the whole path (none for tickle).
    public private(set) var resampled: [Point] = []
    private let samples: Int
    var finger = SingleFinger()

    init(regions: [Region], samples: Int = 0) {
        self.regions = regions
        self.samples = samples
        resampled.reserveCapacity(samples)
    }

    /// The finger moved and its sample was added to `stroke`: decide early, or leave `state`.
    func moved(time: Double, events: inout [GestureEvent]) {}
    /// The finger lifted: set `state` to `recognized` (and report) or `failed`.
    func lifted(time: Double, events: inout [GestureEvent]) { state = .failed }
    /// Forgets what the subclass kept of the last stroke.
    func clear() {}

    public func handle(_ frame: TouchFrame, events: inout [GestureEvent]) {
        guard state == .possible else { return }
        let before = stroke.count
        switch finger.step(frame, into: &stroke) {
        case .idle: break
        case .moved: if stroke.count > before { moved(time: frame.time, events: &events) }
        case .secondFinger: state = .failed
        case .cancelled: state = .cancelled
        case .lifted:
            if samples > 0 { stroke.resample(count: samples, into: &resampled) }
            lifted(time: frame.time, events: &events)
        }
    }

    public func cancel(time: Double, events: inout [GestureEvent]) {
        if !state.isFinished { state = .cancelled }
    }

    public func reset() {
        state = .possible
        stroke.removeAll()
        resampled.removeAll(keepingCapacity: true)
        finger.reset()
        clear()
    }

    /// A recognized event of this shape centred at `centerMM`, in the region containing it
    /// (`enclosing`: in the smallest region the closed stroke winds around instead).
    func event(_ kind: GestureKind, time: Double, centerMM: Point, enclosing: Bool = false) -> GestureEvent {
        let center = StrokeGeometry.position(of: centerMM, stroke: stroke, fallback: finger.surface.normalized(centerMM))
        let region = enclosing ? StrokeGeometry.enclosedRegion(by: stroke.positions, in: regions)
                               : StrokeGeometry.region(containing: center, in: regions)
        return GestureEvent(kind: kind, phase: .recognized, time: time, fingers: 1, center: center,
                            centerMM: centerMM, region: region?.name)
    }
}

/// Follows the one finger a shape gesture is drawn with, frame by frame, and says what happened
/// to it: the first finger down starts the
/// stroke; a second finger fails the gesture; a cancelled contact (palm, resync, unplug)
/// cancels it; the finger lifting ends the stroke.
struct SingleFinger {
    enum Step {
        /// Nothing for this recognizer in the frame (no contact yet, or the gesture is over).
        case idle
        /// The finger is down (or just touched down); its sample was appended to the stroke.
        case moved
        /// The finger lifted; its last sample was appended.
        case lifted
        /// More than one finger: not a one-finger shape.
        case secondFinger
        case cancelled
    }

    private(set) var contactID: Int32?
    /// Frame data a recognizer may need at the end (never the frame itself).
    private(set) var lastTime = 0.0
    private(set) var surface = Surface(widthMM: 1, heightMM: 1, isDirect: true)

    mutating func reset() { contactID = nil }

    mutating func step(_ frame: TouchFrame, into stroke: inout Stroke) -> Step {
        lastTime = frame.time
        surface = frame.surface
        // One pass, by index (a contact is read field by field, not copied whole).
        let contacts = frame.contacts
        var tracked = -1
        var others = 0
        for k in contacts.indices {
            let phase = contacts[k].phase
            if phase == .cancelled { return .cancelled }
            if contacts[k].id == contactID {
                tracked = k
            } else if phase.isDown {
                others += 1
            }
        }
        if contactID == nil {
            // Start with a finger that touches down now: a finger already resting when the
            // recognizer was reset (after another gesture) is not the start of a new shape.
            guard others == 1 else { return others == 0 ? .idle : .secondFinger }
            for k in contacts.indices where contacts[k].phase == .began {
                contactID = contacts[k].id
                tracked = k
            }
            guard tracked >= 0 else { return .idle }
            stroke.append(mm: contacts[tracked].mm, position: contacts[tracked].position, time: frame.time)
            return .moved
        }
        if others > 0 { return .secondFinger }
        // Vanished without an end: the tracker lost it, which is no deliberate lift.
        guard tracked >= 0 else { return .cancelled }
        stroke.append(mm: contacts[tracked].mm, position: contacts[tracked].position, time: frame.time)
        switch contacts[tracked].phase {
        case .ended: return .lifted
        case .cancelled: return .cancelled
        case .began, .moved, .stationary: return .moved
        }
    }
}
