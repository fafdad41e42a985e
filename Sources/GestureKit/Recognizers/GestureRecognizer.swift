/// The states of a recognizer, as in UIKit's UIGestureRecognizer.
///
/// Discrete:   possible → recognized | failed
/// Continuous: possible → began → changed… → ended | cancelled, or possible → failed
/// Every recognizer goes back to `possible` through `reset()` once all touches are up.
public enum RecognizerState: Sendable, Equatable {
    case possible
    case began
    case changed
    case ended
    case cancelled
    case failed
    case recognized

    /// The recognizer has reached an end state and waits for `reset()`: until then a frame
    /// changes nothing of it (the arena stops handing it frames) and it has no deadline.
    @inlinable public var isFinished: Bool {
        switch self {
        case .ended, .cancelled, .failed, .recognized: true
        case .possible, .began, .changed: false
        }
    }

    /// A continuous gesture is in progress.
    @inlinable public var isActive: Bool { self == .began || self == .changed }
}

/// A small state machine fed with touch frames. It never does I/O and never reads a clock:
/// time comes inside frames and through `tick(now:)`.
///
/// Recognizers append the events they produce to `events`; the arena that owns them decides
/// whether those events are delivered (a recognizer that loses arbitration is cancelled and its
/// events are dropped). Appending to a caller-owned buffer keeps steady-state input free of
/// allocation.
public protocol GestureRecognizer: AnyObject {
    var kind: GestureKind { get }
    var state: RecognizerState { get }

    /// Consume one frame. Only contacts the arena lets this recognizer see are in it
    /// (contacts that began in an excluded region are taken out).
    func handle(_ frame: TouchFrame, events: inout [GestureEvent])

    /// Time passed with no input; lets timeouts fire (long press, double-tap window).
    func tick(now: Double, events: inout [GestureEvent])

    /// The earliest time at which `tick` could change something, or nil when nothing is pending.
    /// The daemon arms one timer for the earliest deadline of all recognizers: no polling.
    var deadline: Double? { get }

    /// Stop: another recognizer won, or the touches were cancelled (palm, SYN_DROPPED, unplug).
    /// A continuous recognizer that had begun appends a `cancelled` event; any other goes to
    /// `failed` (or `cancelled`) silently.
    func cancel(time: Double, events: inout [GestureEvent])

    /// Back to `possible`, with no memory of the previous gesture except what a multi-gesture
    /// recognizer needs on purpose (a double tap's first tap).
    func reset()

    /// `handle`, then what the arena reads after it: the state and the deadline the frame left.
    /// The arena's one call per recognizer per frame, not calls of their own for state and
    /// deadline (speed: docs/architecture.md). The default does just that, specialized for
    /// each recognizer (both are inlined reads); a recognizer may implement it to return what
    /// it already knows, never anything else.
    func handleReportingStatus(_ frame: TouchFrame, events: inout [GestureEvent]) -> RecognizerStatus

    // The arena's calls to a recognizer that sees whole frames: as the ones above, reading the
    // sequence in the context the arena lends for the call (FrameContext: who writes it, who may
    // read it and for how long). A recognizer that reads no group ignores it (the defaults); a
    // GroupReader reads its group there, and through the calls above reads its own context.

    func handleReportingStatus(_ frame: TouchFrame, in context: borrowing FrameContext,
                               events: inout [GestureEvent]) -> RecognizerStatus
    func tick(now: Double, in context: borrowing FrameContext, events: inout [GestureEvent])
    func deadline(in context: borrowing FrameContext) -> Double?
    func cancel(time: Double, in context: borrowing FrameContext, events: inout [GestureEvent])
}

/// A recognizer's state and deadline as one frame left them (`handleReportingStatus`).
public struct RecognizerStatus: Sendable, Equatable {
    public var state: RecognizerState
    /// The deadline, infinity for none: an untimed recognizer's is then a constant, and the
    /// arena compares it with the one it keeps without unwrapping an optional.
    public var due: Double

    @inlinable public init(state: RecognizerState, deadline: Double?) {
        self.state = state
        due = deadline ?? .infinity
    }

    public var deadline: Double? { due < .infinity ? due : nil }
}

extension GestureRecognizer {
    /// The name used in config, on the socket and in arena rules, e.g. "circle".
    public var name: String { kind.rawValue }

    public func handleReportingStatus(_ frame: TouchFrame, events: inout [GestureEvent]) -> RecognizerStatus {
        handle(frame, events: &events)
        return RecognizerStatus(state: state, deadline: deadline)
    }

    @inline(__always)
    public func handleReportingStatus(_ frame: TouchFrame, in context: borrowing FrameContext,
                                      events: inout [GestureEvent]) -> RecognizerStatus {
        handleReportingStatus(frame, events: &events)
    }

    public func tick(now: Double, in context: borrowing FrameContext, events: inout [GestureEvent]) {
        tick(now: now, events: &events)
    }

    public func deadline(in context: borrowing FrameContext) -> Double? { deadline }

    public func cancel(time: Double, in context: borrowing FrameContext, events: inout [GestureEvent]) {
        cancel(time: time, events: &events)
    }
}

/// A recognizer none of whose rules is timed by the clock (pan, pinch, rotate, the one-finger
/// shapes): it decides on frames alone and never asks for a tick.
public protocol UntimedRecognizer: GestureRecognizer {}

/// A recognizer of two or more fingers (pinch, rotate): a frame of a sequence in which one contact
/// alone has appeared, still down, changes nothing for it, and the arena does not hand it such
/// frames (the finger's lift, which fails it, it does). A one-finger stroke pays a count check
/// for it, not a call.
public protocol MultiContactRecognizer: GestureRecognizer {}

/// A one-finger shape decided only when its finger lifts (circle, checkmark, taught shapes):
/// while that finger alone is followed and moves, a frame changes nothing of it but the stroke
/// it reads. On such a frame the arena adds the finger's sample to that stroke once and hands
/// these recognizers nothing (no `handle`, no state read); they are handed every other frame —
/// the first, the lift, a second finger, a cancellation. A recognizer is not one unless it says
/// so (conforms).
public protocol DecidedAtLift: UntimedRecognizer {
    /// The stroke it follows (RecognizerContext.stroke), which the arena grows for it.
    var followedStroke: SharedStroke { get }
    /// Whether handing it `frame` would only add the frame's sample to `followedStroke`: what
    /// the arena's skip relies on, asserted by debug builds on every frame it skips.
    func onlyGrowsStroke(_ frame: TouchFrame) -> Bool
}

extension UntimedRecognizer {
    public var deadline: Double? { nil }
    public func tick(now: Double, events: inout [GestureEvent]) {}
}

extension RecognizerState {
    /// The arena's cancel as a continuous recognizer answers it: a gesture in progress ends
    /// `cancelled` (reporting the event `cancelledEvent` builds); one not yet decided fails.
    @inlinable public mutating func cancel(events: inout [GestureEvent], _ cancelledEvent: () -> GestureEvent) {
        if isActive {
            events.append(cancelledEvent())
            self = .cancelled
        } else if !isFinished {
            self = .failed
        }
    }

    /// The arena's cancel as a discrete recognizer answers it: it has nothing to report, and a
    /// gesture not yet decided fails.
    @inlinable public mutating func cancel() {
        if !isFinished { self = .failed }
    }
}
