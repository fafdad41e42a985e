/// A recognizer that follows every contact of its frames as one ContactGroup: it reads the
/// group of the context it is lent with each call. An arena lends the readers that see whole
/// frames its context (FrameContext) and never calls their plain calls; handed frames itself
/// (on its own, or by an arena through a region filter), a reader takes them into its own
/// context (`own`) and reads that one.
///
/// What every reader shares is written once, below: the arena's call (while the reader
/// `followsFrames`, `follow` reads the frame in the context lent; then the state and deadline it
/// left), and the plain calls, which forward to the `in context:` ones with its own context. A
/// reader writes only what it decides: `followsFrames`, `follow`, the `in context:` calls it
/// reads the group in (`deadline(in:)`, `tick(now:in:events:)`, `cancel(time:in:events:)`, or a
/// plain `cancel` that reads nothing), and `reset` (which clears `own`).
public protocol GroupReader: GestureRecognizer {
    /// Whether a frame can still change it; when not, the arena's call reads nothing else.
    var followsFrames: Bool { get }
    /// One frame, read in `context`: the arena's, or its own (already holding the frame).
    func follow(_ frame: TouchFrame, _ context: borrowing FrameContext, events: inout [GestureEvent])
    /// Its context for the frames it is handed itself.
    var own: ReaderContext { get }
}

/// A reader's own context (GroupReader.own): its owner alone writes it, by the frames it is handed.
public final class ReaderContext {
    public private(set) var context: FrameContext
    private let storage = FrameContext.makeStorage()

    public init() { context = FrameContext(in: storage) }

    /// Takes in a frame the reader is handed itself.
    public func take(_ frame: TouchFrame) { context.take(frame) }

    /// Forgets the sequence (the reader restarted).
    public func clear() { context.clear() }
}

extension GroupReader {
    /// The arena's call, in line (specialized for each reader: its `follow`, state and deadline
    /// are read directly). An untimed reader's deadline is nil without a read.
    @inline(__always)
    public func handleReportingStatus(_ frame: TouchFrame, in context: borrowing FrameContext,
                                      events: inout [GestureEvent]) -> RecognizerStatus {
        if followsFrames { follow(frame, context, events: &events) }
        return RecognizerStatus(state: state, deadline: deadline(in: context))
    }

    /// On its own: its context takes the frame, which it then reads there.
    public func handle(_ frame: TouchFrame, events: inout [GestureEvent]) {
        guard followsFrames else { return }
        own.take(frame)
        follow(frame, own.context, events: &events)
    }

    public var deadline: Double? { deadline(in: own.context) }

    public func tick(now: Double, events: inout [GestureEvent]) { tick(now: now, in: own.context, events: &events) }

    public func cancel(time: Double, events: inout [GestureEvent]) { cancel(time: time, in: own.context, events: &events) }
}

extension GroupReader where Self: UntimedRecognizer {
    public var deadline: Double? { nil }
    public func tick(now: Double, events: inout [GestureEvent]) {}
}
