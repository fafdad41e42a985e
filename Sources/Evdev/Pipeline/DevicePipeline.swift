import GestureKit

/// What runs on each frame after the arena has handled it: passthrough's relay decides from the
/// arena's claims what the app sees of the frame. One stage per pipeline, or none.
public protocol FrameStage: AnyObject {
    /// A frame the arena has handled; `startsSequence`: its touches are the first of a sequence
    /// (TouchFrame.startsSequence, from the tracker, which knows it as it builds the frame).
    func judged(_ frame: borrowing TouchFrame, startsSequence: Bool, arena: GestureArena)
    /// Events were dropped (SYN_DROPPED): what the stage holds of the contacts is void, before the
    /// contacts are resynchronized (their frames then come to `judged`).
    func dropped()
}

/// One device's whole path from input events to gestures: contact tracker → gesture arena →
/// stage (passthrough). The daemon, `gestured replay`, the tests and the benchmarks all run input
/// through this.
public final class DevicePipeline {
    public let info: DeviceInfo
    public let label: DeviceLabel
    public let arena: GestureArena
    public private(set) var tracker: ContactTracker
    /// Runs after the arena on every frame (the passthrough relay).
    public var stage: FrameStage? {
        get { stageHolder?.stage }
        set { stageHolder = newValue.map(StageHolder.init) }
    }
    /// The stage in a `let`: a frame borrows it through an unretained holder. A stage read from a
    /// `var` (strong or unowned(unsafe)) is retained and released around each frame's call.
    private var stageHolder: StageHolder?
    /// False: the stage is told only the frames that start a touch sequence (the daemon's session
    /// with no passthrough asks the modes at a first touch and has nothing else to do; calling it
    /// on every frame cost ~29 instructions a frame). Resynchronized frames reach it whatever this says.
    public var stageSeesEveryFrame = true

    private final class StageHolder {
        let stage: FrameStage
        init(_ stage: FrameStage) { self.stage = stage }
    }

    public init(info: DeviceInfo, transform: CoordinateTransform = .identity, arena: GestureArena,
                initialSlots: [SlotSnapshot] = []) {
        self.info = info
        label = info.label
        self.arena = arena
        tracker = ContactTracker(info: info, transform: transform, initialSlots: initialSlots)
    }

    /// Feeds one input event; each completed frame goes to `onFrame` (an observer: replay's frame
    /// lines, tests), then to the arena, then to the stage. A SYN_DROPPED in the stream (a
    /// recording's) cancels the gestures in flight.
    public func feed(_ e: InputEvent, onFrame: (borrowing TouchFrame) -> Void = { _ in }, onGesture: (GestureEvent) -> Void) {
        // Most events only change the next frame: no frame callback built for them.
        if tracker.absorb(type: e.type, code: e.code, value: e.value) { return }
        frameEvent(e, onFrame: onFrame, onGesture: onGesture)
    }

    /// Feeds the events of one read (EvdevDevice.read): the same as feeding each, with the
    /// kernel's time converted only for the events that end a frame, and one frame callback per
    /// read. What the tracker's loop leaves (SYN_DROPPED, protocol A) goes one event at a time.
    public func feed(_ events: EventBatch, onGesture: (GestureEvent) -> Void) {
        let arena = Unmanaged.passUnretained(arena)
        let stage = stageHolder.map(Unmanaged.passUnretained), everyFrame = stageSeesEveryFrame
        var i = events.startIndex
        while true {
            i = tracker.feed(events, from: i) { frame, starts in
                Self.judge(frame, startsSequence: starts, arena: arena, stage: stage, everyFrame: everyFrame, onGesture: onGesture)
            }
            guard i < events.endIndex else { return }
            frameEvent(InputEvent(events.base[i]), onFrame: { _ in }, onGesture: onGesture)
            i += 1
        }
    }

    /// A frame to the arena, then to the stage. Both borrowed unretained: the pipeline owns its
    /// arena (`let`) and its stage for longer than a feed, and a strong copy, the pipeline
    /// captured or an unowned(unsafe) arena (which is retained around each use) cost a retain and
    /// a release a frame. (The stage is nil but in the daemon.)
    @inline(__always)
    private static func judge(_ frame: borrowing TouchFrame, startsSequence: Bool, arena: Unmanaged<GestureArena>,
                              stage: Unmanaged<StageHolder>?, everyFrame: Bool, onGesture: (GestureEvent) -> Void) {
        arena._withUnsafeGuaranteedRef { arena in
            arena.handle(frame, emit: onGesture)
            guard everyFrame || startsSequence, let stage else { return }
            stage._withUnsafeGuaranteedRef { $0.stage.judged(frame, startsSequence: startsSequence, arena: arena) }
        }
    }

    /// An event `ContactTracker.absorb` or the batch loop did not take: a SYN, or any event of a protocol A device
    /// or while dropping.
    private func frameEvent(_ e: InputEvent, onFrame: (borrowing TouchFrame) -> Void, onGesture: (GestureEvent) -> Void) {
        let arena = Unmanaged.passUnretained(arena)
        let stage = stageHolder.map(Unmanaged.passUnretained), everyFrame = stageSeesEveryFrame
        tracker.feed(e) { frame, starts in
            onFrame(frame)
            Self.judge(frame, startsSequence: starts, arena: arena, stage: stage, everyFrame: everyFrame, onGesture: onGesture)
        }
        if e.type == EV.SYN && e.code == SYN.DROPPED { self.arena.cancelAll(time: e.time, emit: onGesture) }
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
    /// cancelled; other devices are not affected. The stage is not asked: whoever closes the
    /// device ends it (Passthrough.cancelForApp).
    public func deviceLost(time: Double, onFrame: (borrowing TouchFrame) -> Void = { _ in },
                           onGesture: (GestureEvent) -> Void) {
        let arena = self.arena
        tracker.cancelAll(time: time) { frame in
            onFrame(frame)
            arena.handle(frame, emit: onGesture)
        }
        arena.cancelAll(time: time, emit: onGesture)
    }

    /// The kernel dropped events (SYN_DROPPED) and libevdev resynchronized: the stage drops what
    /// it holds, contacts are resynchronized from `slots` (see ContactTracker.resync) and
    /// in-flight gestures cancelled.
    public func dropped(time: Double, slots: [SlotSnapshot], onFrame: (borrowing TouchFrame) -> Void = { _ in },
                        onGesture: (GestureEvent) -> Void) {
        let arena = self.arena
        let stage = self.stage
        stage?.dropped()
        arena.cancelAll(time: time, emit: onGesture)
        tracker.resync(time: time, slots: slots) { frame, starts in
            onFrame(frame)
            arena.handle(frame, emit: onGesture)
            stage?.judged(frame, startsSequence: starts, arena: arena)
        }
    }
}
