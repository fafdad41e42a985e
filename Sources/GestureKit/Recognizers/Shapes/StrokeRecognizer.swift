/// What the one-finger shapes (circle, checkmark, tickle, taught shapes) share: they follow one
/// finger into a stroke (SingleFinger's rules), fail on a second finger, end `cancelled` when
/// the touches are, and decide when the finger lifts (`lifted`) or, for a shape that can tell
/// while the finger is down, as it moves (`moved`). They have no timers
/// (`UntimedRecognizer`).
///
/// The stroke is the arena's SharedStroke (RecognizerContext): the shape recognizers following
/// the same finger read one stroke, built once per frame.
public class StrokeRecognizer {
    public internal(set) var state = RecognizerState.possible
    public let regions: [Region]
    /// The finger's path (until `reset`, so a trace can show it).
    public var stroke: Stroke { following ? path.stroke : Stroke(capacity: 0) }
    /// The stroke resampled to `samples` evenly spaced points, for shapes decided from the whole
    /// path (none for tickle): measured when first asked after the finger lifted (a shape that a
    /// cheaper bound rules out never asks), empty before.
    public var resampled: [Point] {
        guard hasLifted, samples > 0 else { return [] }
        if !isResampled {
            path.stroke.resample(count: samples, into: &resampledPoints)
            isResampled = true
        }
        return resampledPoints
    }
    /// The stroke's last sample, the one `moved` tells of.
    var lastSample: Stroke.Sample { path.last }
    private let samples: Int
    private var resampledPoints: [Point] = []
    private var isResampled = false
    private var hasLifted = false
    /// The context's stroke, and the one followed: the context's, or one of this recognizer's
    /// own when others follow another finger (SharedStroke.join).
    private let shared: SharedStroke
    private var path: SharedStroke
    private var following = false
    private let decidesWhileDown: Bool
    /// Samples of the stroke this recognizer has been told of (`moved`).
    private var seen = 0
    var finger = SingleFinger()
    /// The surface of the frame the finger lifted in (StrokeRecognizer.event's fallback).
    private var surface = Surface(widthMM: 1, heightMM: 1, isDirect: true)

    /// `decidesWhileDown`: the shape is told of every move (`moved`; the usual frame's by its own
    /// `handle`, through `offerAlone` and `takeNewSample`); others only of the lift.
    init(context: RecognizerContext, samples: Int = 0, decidesWhileDown: Bool = false) {
        self.decidesWhileDown = decidesWhileDown
        regions = context.regions
        shared = context.stroke
        path = context.stroke
        self.samples = samples
        resampledPoints.reserveCapacity(samples)
    }

    /// The finger moved to a new point (the stroke's last): decide early, or leave `state`.
    func moved(time: Double, events: inout [GestureEvent]) {}
    /// The finger lifted: set `state` to `recognized` (and report) or `failed`.
    func lifted(time: Double, events: inout [GestureEvent]) { state = .failed }
    /// Forgets what the subclass kept of the last stroke.
    func clear() {}

    /// A shape decided at lift only offers the usual frame's sample to the stroke: a shape that
    /// decides while down (tickle) has a `handle` of its own.
    public func handle(_ frame: TouchFrame, events: inout [GestureEvent]) {
        guard state == .possible else { return }
        if finger.movesAlone(frame) {
            path.offer(frame.contacts[0])
        } else {
            step(frame, events: &events)
        }
    }

    /// The context's stroke (DecidedAtLift.followedStroke).
    public final var followedStroke: SharedStroke { shared }

    /// Handing it `frame` would change nothing but the followed stroke (DecidedAtLift): it is
    /// undecided, follows the context's stroke, and the frame only moves its finger.
    public final func onlyGrowsStroke(_ frame: TouchFrame) -> Bool {
        state == .possible && path === shared && finger.movesAlone(frame)
    }

    /// Offers the usual frame's sample (SingleFinger.movesAlone: the followed finger alone,
    /// still down) to the stroke followed (SharedStroke.offer).
    @inline(__always)
    final func offerAlone(_ frame: TouchFrame) { path.offer(frame.contacts[0]) }

    /// True when the stroke has a sample this recognizer has not been told of (`moved`), which
    /// it now has.
    @inline(__always)
    final func takeNewSample() -> Bool {
        let count = path.stroke.count
        guard count > seen else { return false }
        seen = count
        return true
    }

    /// Any frame but the usual one (SingleFinger.movesAlone): kept out of `handle`, which then
    /// stays short for a frame that only moves the finger (speed: docs/architecture.md).
    @inline(never)
    final func step(_ frame: TouchFrame, events: inout [GestureEvent]) {
        switch finger.step(frame) {
        case .idle:
            return
        case .began(let k):
            let c = frame.contacts[k]
            if !path.join(c.id, mm: c.mm, position: c.position) {
                path = SharedStroke()
                _ = path.join(c.id, mm: c.mm, position: c.position)
            }
            following = true
        case .moved(let k):
            path.offer(frame.contacts[k])
        case .lifted(let k):
            path.offer(frame.contacts[k])
            hasLifted = true
            surface = frame.surface
            lifted(time: frame.time, events: &events)
            return
        case .secondFinger:
            state = .failed
            return
        case .cancelled:
            state = .cancelled
            return
        }
        if decidesWhileDown { tellMove(time: frame.time, events: &events) }
    }

    /// Calls `moved` when the stroke has a point this recognizer has not been told of.
    private func tellMove(time: Double, events: inout [GestureEvent]) {
        if takeNewSample() { moved(time: time, events: &events) }
    }

    public func cancel(time: Double, events: inout [GestureEvent]) {
        if !state.isFinished { state = .cancelled }
    }

    public func reset() {
        state = .possible
        if following {
            path.leave()
            following = false
        }
        // Each only when it changes anything: assigning the stroke retains and releases, clearing
        // an array checks its uniqueness (a reset of a stroke that followed the shared stroke and
        // was never resampled, the usual one, does neither).
        if path !== shared { path = shared }
        seen = 0
        hasLifted = false
        isResampled = false
        if !resampledPoints.isEmpty { resampledPoints.removeAll(keepingCapacity: true) }
        finger.reset()
        clear()
    }

    /// A recognized event of this shape centred at `centerMM`, in the region containing it
    /// (`enclosing`: in the smallest region the closed stroke winds around instead).
    func event(_ kind: GestureKind, time: Double, centerMM: Point, enclosing: Bool = false) -> GestureEvent {
        let stroke = path.stroke
        let center = StrokeGeometry.position(of: centerMM, stroke: stroke, fallback: surface.normalized(centerMM))
        let region = enclosing ? StrokeGeometry.enclosedRegion(by: stroke.positions, in: regions)
                               : StrokeGeometry.region(containing: center, in: regions)
        return GestureEvent(kind: kind, phase: .recognized, time: time, fingers: 1, center: center,
                            centerMM: centerMM, regionName: region?.internedName)
    }
}

/// Follows the one finger a shape gesture is drawn with, frame by frame, and says what happened
/// to it: the first finger down starts the stroke; a second finger fails the gesture; a
/// cancelled contact (palm, resync, unplug) cancels it; the finger lifting ends the stroke.
struct SingleFinger {
    enum Step: Equatable {
        /// Nothing for this recognizer in the frame (no contact yet, or the gesture is over).
        case idle
        /// The finger (the frame's contact at this index) touched down: its sample starts the stroke.
        case began(Int)
        /// The finger is down; its sample is the stroke's next.
        case moved(Int)
        /// The finger lifted; its sample is the stroke's last.
        case lifted(Int)
        /// More than one finger: not a one-finger shape.
        case secondFinger
        case cancelled
    }

    private(set) var contactID: Int32?

    mutating func reset() { contactID = nil }

    /// The usual frame: the followed finger alone, still down — `step` would say `.moved(0)`.
    @inline(__always)
    func movesAlone(_ frame: TouchFrame) -> Bool {
        guard let id = contactID, frame.contacts.count == 1 else { return false }
        let c = frame.contacts[0]
        return c.id == id && (c.phase == .moved || c.phase == .stationary)
    }

    mutating func step(_ frame: TouchFrame) -> Step {
        let contacts = frame.contacts
        // One pass, by index (a contact is read field by field, not copied whole).
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
            return tracked >= 0 ? .began(tracked) : .idle
        }
        if others > 0 { return .secondFinger }
        // Vanished without an end: the tracker lost it, which is no deliberate lift.
        guard tracked >= 0 else { return .cancelled }
        switch contacts[tracked].phase {
        case .ended: return .lifted(tracked)
        case .cancelled: return .cancelled
        case .began, .moved, .stationary: return .moved(tracked)
        }
    }
}
