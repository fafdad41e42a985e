import GestureKit

/// One device's whole path from input events to gestures: contact tracker → gesture arena.
/// The daemon, `gestured replay`, the tests and the benchmarks all run input through this.
public final class DevicePipeline {
    public let info: DeviceInfo
    public let label: DeviceLabel
    public let arena: GestureArena
    public private(set) var tracker: ContactTracker

    public init(info: DeviceInfo, transform: CoordinateTransform = .identity, arena: GestureArena,
                initialSlots: [SlotSnapshot] = []) {
        self.info = info
        label = info.label
        self.arena = arena
        tracker = ContactTracker(info: info, transform: transform, initialSlots: initialSlots)
    }

    /// Feeds one input event; each completed frame goes to `onFrame` and then to the arena.
    /// A SYN_DROPPED in the stream cancels the gestures in flight.
    public func feed(_ e: InputEvent, onFrame: (borrowing TouchFrame) -> Void, onGesture: (GestureEvent) -> Void) {
        // Unretained: the pipeline owns its arena (`let`) for longer than this call, and a
        // strong copy cost a retain and a release per input event.
        unowned(unsafe) let arena = self.arena
        tracker.feed(e) { frame in
            onFrame(frame)
            arena.handle(frame, emit: onGesture)
        }
        if e.type == EV.SYN && e.code == SYN.DROPPED { arena.cancelAll(time: e.time, emit: onGesture) }
    }

    /// As `feed(_:onFrame:onGesture:)`, with `judged` called once the arena has handled each
    /// frame (passthrough decides what the app sees from the arena's claims).
    public func feed(_ e: InputEvent, judged: (borrowing TouchFrame) -> Void, onGesture: (GestureEvent) -> Void) {
        unowned(unsafe) let arena = self.arena  // as above
        tracker.feed(e) { frame in
            arena.handle(frame, emit: onGesture)
            judged(frame)
        }
        if e.type == EV.SYN && e.code == SYN.DROPPED { arena.cancelAll(time: e.time, emit: onGesture) }
    }

    public func feed(_ e: InputEvent, onGesture: (GestureEvent) -> Void) {
        feed(e, onFrame: { _ in }, onGesture: onGesture)
    }

    /// Lets recognizer timeouts fire (`now` on the clock of the event times).
    public func tick(now: Double, onGesture: (GestureEvent) -> Void) {
        arena.tick(now: now, emit: onGesture)
    }

    /// When `tick` next needs to run, if ever.
    public var deadline: Double? { arena.deadline }

    /// Fires the timeouts up to `time` (DeadlineDriver): for replay, which plays time itself.
    @discardableResult
    public func fireDeadlines(until time: Double, onGesture: (GestureEvent) -> Void) -> Int {
        arena.fireDeadlines(until: time, emit: onGesture)
    }

    /// The device was unplugged (or is being closed): its contacts and its gestures are
    /// cancelled; other devices are not affected.
    public func deviceLost(time: Double, onFrame: (borrowing TouchFrame) -> Void = { _ in },
                           onGesture: (GestureEvent) -> Void) {
        let arena = self.arena
        tracker.cancelAll(time: time) { frame in
            onFrame(frame)
            arena.handle(frame, emit: onGesture)
        }
        arena.cancelAll(time: time, emit: onGesture)
    }

    /// The kernel dropped events (SYN_DROPPED) and libevdev resynchronized: contacts are
    /// resynchronized from `slots` (see ContactTracker.resync) and in-flight gestures cancelled.
    public func dropped(time: Double, slots: [SlotSnapshot], onFrame: (borrowing TouchFrame) -> Void = { _ in },
                        onGesture: (GestureEvent) -> Void) {
        let arena = self.arena
        arena.cancelAll(time: time, emit: onGesture)
        tracker.resync(time: time, slots: slots) { frame in
            onFrame(frame)
            arena.handle(frame, emit: onGesture)
        }
    }
}
