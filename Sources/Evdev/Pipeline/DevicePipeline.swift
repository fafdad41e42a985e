import GestureKit

/// One device's whole path from input events to gestures: contact tracker → gesture arena →
/// stage (passthrough), and the gate told each sequence's first touch (the modes). The daemon,
/// `gestured replay`, the tests and the benchmarks all run input through this, and every frame
/// reaches the arena by one route (`show`, then `judge`).
public final class DevicePipeline {
    public let info: DeviceInfo
    public let label: DeviceLabel
    public let arena: GestureArena
    public private(set) var tracker: ContactTracker
    /// Takes every event and every judged frame (the passthrough clone); nil: none.
    public var stage: FrameStage? {
        get { hooks?.stage }
        set { hook(stage: newValue, gate: hooks?.gate) }
    }
    /// Told the first touch of each sequence (the daemon's modes, which the service keeps for
    /// longer than any pipeline: held unretained); nil: none.
    public var gate: Borrowed<TouchGate>? {
        get { hooks?.gate }
        set { hook(stage: stage, gate: newValue) }
    }
    /// The stage and the gate in `let`s: a frame borrows them through one unretained holder. One
    /// read from a `var` (strong or unowned(unsafe)) is retained and released around each call.
    private var hooks: Hooks?
    /// `stage != nil`, read per read without touching the holder.
    private var staged = false
    /// Ghost touches held back from the arena and the stage (`quarantine_ghosts`), nil when off.
    public var quarantine: GhostQuarantine? {
        didSet { quarantines = quarantine != nil }
    }
    /// `quarantine != nil`, read per read and per wakeup without touching the quarantine.
    private var quarantines = false

    private final class Hooks {
        let stage: FrameStage?
        let gate: Borrowed<TouchGate>?
        init(stage: FrameStage?, gate: Borrowed<TouchGate>?) {
            self.stage = stage
            self.gate = gate
        }
    }

    private func hook(stage: FrameStage?, gate: Borrowed<TouchGate>?) {
        hooks = stage == nil && gate == nil ? nil : Hooks(stage: stage, gate: gate)
        staged = stage != nil
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

    /// Every feed: with a stage, the read walked frame by frame (`stagedTake`); without, the
    /// tracker's one loop over the events (`track`).
    @inline(__always)
    private func take<Events: InputEvents>(_ events: Events, onFrame: (borrowing TouchFrame) -> Void,
                                           onGesture: (GestureEvent) -> Void) {
        let hooks = hooks.map(Borrowed.init)
        if staged {
            stagedTake(events, hooks: hooks!, onFrame: onFrame, onGesture: onGesture)
        } else {
            track(events, hooks: hooks, onFrame: onFrame, onGesture: onGesture)
        }
    }

    /// The stage records each event of a frame before the tracker takes the frame, and hears its
    /// SYN_REPORT after the arena and the stage judged it (the clone writes the app's frame then).
    /// Out of line: with no stage (every device not passed through) a read costs no larger frame.
    @inline(never)
    private func stagedTake<Events: InputEvents>(_ events: Events, hooks: Borrowed<Hooks>, onFrame: (borrowing TouchFrame) -> Void,
                                                 onGesture: (GestureEvent) -> Void) {
        hooks.with { h in
            guard let stage = h.stage else { return }
            var start = 0
            for i in 0..<events.endIndex {
                let e = events.event(at: i)
                stage.record(e)
                let report = e.type == EV.SYN && e.code == SYN.REPORT
                guard report || i == events.endIndex - 1 else { continue }
                track(events.part(start..<i + 1), hooks: hooks, onFrame: onFrame, onGesture: onGesture)
                start = i + 1
                if report { stage.frameEnded(e) }
            }
        }
    }

    /// The tracker's one loop over the events: each frame to `onFrame` and on (`show`), each
    /// SYN_DROPPED's time to the arena (the gestures in flight cancelled).
    @inline(__always)
    private func track<Events: InputEvents>(_ events: Events, hooks: Borrowed<Hooks>?, onFrame: (borrowing TouchFrame) -> Void,
                                            onGesture: (GestureEvent) -> Void) {
        @inline(__always) func judge(_ frame: borrowing TouchFrame, _ starts: Bool) {
            onFrame(frame)
            show(frame, startsSequence: starts, hooks: hooks, onGesture: onGesture)
        }
        @inline(__always) func dropped(_ time: Double) {
            Borrowed(arena).with { $0.cancelAll(time: time, emit: onGesture) }
        }
        if tracker.convertsEvents {
            tracker.convert(events, onFrame: judge, onDropped: dropped)
        } else {
            tracker.take(events, onFrame: judge, onDropped: dropped)
        }
    }

    /// The one route of a frame to the arena, then to the gate (a sequence's first touch) and the
    /// stage. All borrowed unretained: the pipeline owns its arena (`let`) and its hooks for
    /// longer than a feed, and a strong copy, the pipeline captured or an unowned(unsafe) arena
    /// (which is retained around each use) cost a retain and a release a frame. `hooks` nil: the
    /// device is being closed, and only the arena hears it.
    @inline(__always)
    private static func judge(_ frame: borrowing TouchFrame, startsSequence: Bool, arena: Borrowed<GestureArena>,
                              hooks: Borrowed<Hooks>?, onGesture: (GestureEvent) -> Void) {
        arena.with { arena in
            guard let hooks else { return arena.handle(frame, emit: onGesture) }
            hooks.with { h in
                // A frame that starts a sequence is never judged before the arena (its touches are new).
                if !startsSequence, let stage = h.stage, stage.judgedBeforeArena(frame) {
                    arena.handle(frame, emit: onGesture)
                    stage.arenaJudged(arena)
                    return
                }
                arena.handle(frame, emit: onGesture)
                if startsSequence, let gate = h.gate, gate.with({ $0.firstTouch(answerNow: h.stage != nil) }) {
                    h.stage?.withholdSequence()
                }
                h.stage?.judged(frame, arena: arena)
            }
        }
    }

    /// A frame through the ghost quarantine when it is on: what it shows is judged, each shown
    /// frame on whether it starts a sequence (a ghost starts none: the modes' idle timer and the
    /// screen's wake never hear of it).
    @inline(__always)
    private func show(_ frame: borrowing TouchFrame, startsSequence: Bool, hooks: Borrowed<Hooks>?,
                      onGesture: (GestureEvent) -> Void) {
        if quarantines {
            judgeQuarantined(frame, hooks: hooks, onGesture: onGesture)
        } else {
            Self.judge(frame, startsSequence: startsSequence, arena: Borrowed(arena), hooks: hooks, onGesture: onGesture)
        }
    }

    @inline(never)
    private func judgeQuarantined(_ frame: borrowing TouchFrame, hooks: Borrowed<Hooks>?, onGesture: (GestureEvent) -> Void) {
        let arena = Borrowed(arena)
        quarantine?.filter(frame) { shown in
            Self.judge(shown, startsSequence: shown.startsSequence, arena: arena, hooks: hooks, onGesture: onGesture)
        }
    }

    /// Held contacts due by `time` are shown (the quarantine's deadline), before the timeouts fire.
    private func releaseQuarantined(until time: Double, onGesture: (GestureEvent) -> Void) {
        guard quarantine?.deadline.map({ $0 <= time }) == true else { return }
        let arena = Borrowed(arena), hooks = hooks.map(Borrowed.init)
        quarantine?.release(until: time) { shown in
            Self.judge(shown, startsSequence: shown.startsSequence, arena: arena, hooks: hooks, onGesture: onGesture)
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
    /// cancelled; other devices are not affected. Neither the stage nor the gate is asked:
    /// whoever closes the device ends it (Passthrough.cancelForApp).
    public func deviceLost(time: Double, onFrame: (borrowing TouchFrame) -> Void = { _ in },
                           onGesture: (GestureEvent) -> Void) {
        tracker.cancelAll(time: time) { frame in
            onFrame(frame)
            show(frame, startsSequence: false, hooks: nil, onGesture: onGesture)
        }
        arena.cancelAll(time: time, emit: onGesture)
    }

    /// The kernel dropped events (SYN_DROPPED) and libevdev resynchronized: the stage drops what
    /// it holds, contacts are resynchronized from `slots` (see ContactTracker.resync) and
    /// in-flight gestures cancelled.
    public func dropped(time: Double, slots: [SlotSnapshot], onFrame: (borrowing TouchFrame) -> Void = { _ in },
                        onGesture: (GestureEvent) -> Void) {
        let hooks = self.hooks.map(Borrowed.init)
        stage?.dropped()
        arena.cancelAll(time: time, emit: onGesture)
        tracker.resync(time: time, slots: slots) { frame, starts in
            onFrame(frame)
            show(frame, startsSequence: starts, hooks: hooks, onGesture: onGesture)
        }
        stage?.resynchronized()
    }
}
