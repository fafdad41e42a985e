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
    /// A frame before the arena handles it: true when the stage judged it already, its outcome
    /// not depending on the arena's verdict on it (passthrough's lift: the clone does not wait
    /// for the recognizers); the arena's verdict then comes to `arenaJudged`, not `judged`.
    func judgedBeforeArena(_ frame: borrowing TouchFrame) -> Bool
    /// After the arena handled a frame the stage judged before it (claims it made may end or
    /// release other contacts).
    func arenaJudged(_ arena: GestureArena)
}

extension FrameStage {
    public func judgedBeforeArena(_ frame: borrowing TouchFrame) -> Bool { false }
    public func arenaJudged(_ arena: GestureArena) {}
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
    /// Ghost touches held back from the arena and the stage (`quarantine_ghosts`), nil when off.
    public var quarantine: GhostQuarantine? {
        didSet { quarantines = quarantine != nil }
    }
    /// `quarantine != nil`, read per read and per wakeup without touching the quarantine.
    private var quarantines = false

    private final class StageHolder {
        let stage: FrameStage
        init(_ stage: FrameStage) { self.stage = stage }
    }

    /// `palmMM`: contacts this large are palms (PalmRule; ignored when the device reports no size).
    public init(info: DeviceInfo, transform: CoordinateTransform = .identity, arena: GestureArena,
                initialSlots: [SlotSnapshot] = [], palmMM: Double? = nil) {
        self.info = info
        label = info.label
        self.arena = arena
        let palm = palmMM.flatMap { PalmRule(mm: $0, info: info, sizeMM: transform.sizeMMOverride ?? info.sizeMM) }
        tracker = ContactTracker(info: info, transform: transform, initialSlots: initialSlots, palm: palm)
    }

    /// Feeds one input event; each completed frame goes to `onFrame` (an observer: replay's frame
    /// lines, tests), then to the arena, then to the stage. A SYN_DROPPED in the stream (a
    /// recording's) cancels the gestures in flight.
    public func feed(_ e: InputEvent, onFrame: (borrowing TouchFrame) -> Void = { _ in }, onGesture: (GestureEvent) -> Void) {
        withUnsafePointer(to: e) { e in
            take(UnsafeBufferPointer(start: e, count: 1), onFrame: onFrame, onGesture: onGesture)
        }
    }

    /// Feeds recorded events (a stretch of a recording) as `feed(_:onGesture:)` feeds a read.
    public func feed(_ events: ArraySlice<InputEvent>, onFrame: (borrowing TouchFrame) -> Void = { _ in },
                     onGesture: (GestureEvent) -> Void) {
        events.withUnsafeBufferPointer { take($0, onFrame: onFrame, onGesture: onGesture) }
    }

    /// Plays recorded events as a device and the daemon's timer would bring them: each frame's
    /// events (up to its SYN_REPORT or SYN_DROPPED) fed at once, after the timeouts due by the
    /// latest of their times fired — what feeding them one at a time, each after the timeouts due
    /// by its time, gives: only a frame's last event reaches the arena.
    public func play(_ events: ArraySlice<InputEvent>, onFrame: (borrowing TouchFrame) -> Void = { _ in },
                     onGesture: (GestureEvent) -> Void) {
        var start = events.startIndex
        var latest = -Double.infinity
        for i in events.indices {
            let e = events[i]
            latest = max(latest, e.time)
            guard e.type == EV.SYN && (e.code == SYN.REPORT || e.code == SYN.DROPPED) || i == events.endIndex - 1 else { continue }
            fireDeadlines(until: latest, onGesture: onGesture)
            feed(events[start...i], onFrame: onFrame, onGesture: onGesture)
            start = i + 1
            latest = -Double.infinity
        }
    }

    /// Feeds the events of one read (EvdevDevice.read): the kernel's time converted only for
    /// the events that end a frame, one frame callback per read.
    public func feed(_ events: EventBatch, onGesture: (GestureEvent) -> Void) {
        take(events, onFrame: { _ in }, onGesture: onGesture)
    }

    /// Every feed: the tracker's one loop over the events, each frame to `onFrame`, the arena
    /// and the stage, each SYN_DROPPED's time to the arena (the gestures in flight cancelled).
    @inline(__always)
    private func take<Events: InputEvents>(_ events: Events, onFrame: (borrowing TouchFrame) -> Void,
                                           onGesture: (GestureEvent) -> Void) {
        let arena = Borrowed(arena)
        let stage = stageHolder.map(Borrowed.init), everyFrame = stageSeesEveryFrame
        let quarantines = self.quarantines
        @inline(__always) func judge(_ frame: borrowing TouchFrame, _ starts: Bool) {
            onFrame(frame)
            if quarantines {
                judgeQuarantined(frame, onGesture: onGesture)
            } else {
                Self.judge(frame, startsSequence: starts, arena: arena, stage: stage, everyFrame: everyFrame, onGesture: onGesture)
            }
        }
        @inline(__always) func dropped(_ time: Double) {
            arena.with { $0.cancelAll(time: time, emit: onGesture) }
        }
        if tracker.convertsEvents {
            tracker.convert(events, onFrame: judge, onDropped: dropped)
        } else {
            tracker.take(events, onFrame: judge, onDropped: dropped)
        }
    }

    /// A frame to the arena, then to the stage. Both borrowed unretained: the pipeline owns its
    /// arena (`let`) and its stage for longer than a feed, and a strong copy, the pipeline
    /// captured or an unowned(unsafe) arena (which is retained around each use) cost a retain and
    /// a release a frame. (The stage is nil but in the daemon.)
    @inline(__always)
    private static func judge(_ frame: borrowing TouchFrame, startsSequence: Bool, arena: Borrowed<GestureArena>,
                              stage: Borrowed<StageHolder>?, everyFrame: Bool, onGesture: (GestureEvent) -> Void) {
        arena.with { arena in
            guard everyFrame || startsSequence, let stage else { return arena.handle(frame, emit: onGesture) }
            stage.with { holder in
                // A frame that starts a sequence is never judged before the arena (its touches are new).
                if !startsSequence, holder.stage.judgedBeforeArena(frame) {
                    arena.handle(frame, emit: onGesture)
                    holder.stage.arenaJudged(arena)
                } else {
                    arena.handle(frame, emit: onGesture)
                    holder.stage.judged(frame, startsSequence: startsSequence, arena: arena)
                }
            }
        }
    }

    /// A frame through the ghost quarantine: what it shows goes to the arena and the stage, each
    /// shown frame judged on whether it starts a sequence (a ghost starts none: the modes' idle
    /// timer and the screen's wake never hear of it).
    @inline(never)
    private func judgeQuarantined(_ frame: borrowing TouchFrame, onGesture: (GestureEvent) -> Void) {
        let arena = Borrowed(arena)
        let stage = stageHolder.map(Borrowed.init), everyFrame = stageSeesEveryFrame
        quarantine?.filter(frame) { shown in
            Self.judge(shown, startsSequence: shown.startsSequence, arena: arena, stage: stage, everyFrame: everyFrame, onGesture: onGesture)
        }
    }

    /// Held contacts due by `time` are shown (the quarantine's deadline), before the timeouts fire.
    private func releaseQuarantined(until time: Double, onGesture: (GestureEvent) -> Void) {
        guard quarantine?.deadline.map({ $0 <= time }) == true else { return }
        let arena = Borrowed(arena)
        let stage = stageHolder.map(Borrowed.init), everyFrame = stageSeesEveryFrame
        quarantine?.release(until: time) { shown in
            Self.judge(shown, startsSequence: shown.startsSequence, arena: arena, stage: stage, everyFrame: everyFrame, onGesture: onGesture)
        }
    }

    /// Lets recognizer timeouts fire (`now` on the clock of the event times).
    public func tick(now: Double, onGesture: (GestureEvent) -> Void) {
        if quarantines { releaseQuarantined(until: now, onGesture: onGesture) }
        arena.tick(now: now, emit: onGesture)
    }

    /// When `tick` next needs to run, if ever: recognizer timeouts, a held contact due.
    public var deadline: Double? {
        guard quarantines, let q = quarantine?.deadline else { return arena.deadline }
        return min(q, arena.deadline ?? q)
    }

    /// Fires the timeouts up to `time` (DeadlineDriver): for replay, which plays time itself.
    @discardableResult
    public func fireDeadlines(until time: Double, onGesture: (GestureEvent) -> Void) -> Int {
        if quarantines { releaseQuarantined(until: time, onGesture: onGesture) }
        return arena.fireDeadlines(until: time, emit: onGesture)
    }

    /// The device was unplugged (or is being closed): its contacts and its gestures are
    /// cancelled; other devices are not affected. The stage is not asked: whoever closes the
    /// device ends it (Passthrough.cancelForApp).
    public func deviceLost(time: Double, onFrame: (borrowing TouchFrame) -> Void = { _ in },
                           onGesture: (GestureEvent) -> Void) {
        let arena = self.arena
        tracker.cancelAll(time: time) { frame in
            onFrame(frame)
            if quarantine != nil {
                quarantine?.filter(frame) { arena.handle($0, emit: onGesture) }
            } else {
                arena.handle(frame, emit: onGesture)
            }
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
            if quarantine != nil {
                quarantine?.filter(frame) { shown in
                    arena.handle(shown, emit: onGesture)
                    stage?.judged(shown, startsSequence: shown.startsSequence, arena: arena)
                }
            } else {
                arena.handle(frame, emit: onGesture)
                stage?.judged(frame, startsSequence: starts, arena: arena)
            }
        }
    }
}
