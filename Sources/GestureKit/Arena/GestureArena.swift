/// Arbitrates between the recognizers of one device (UIKit's failure requirements and
/// simultaneous recognition, Flutter's arena). The rules, in the order they apply:
///
/// - A touch sequence runs from the first contact down to the frame where none is down.
///   Every enabled recognizer sees the sequence's frames, minus the contacts that began in a
///   region excluded for it (`ArenaRules.excludedRegions`; "*" applies to every recognizer).
///   Frames that cannot change a recognizer are not handed to it: the three routing rules, each
///   with its reason, are in ArenaRouting (and nowhere else).
/// - Exclusive by default: the first recognizer to claim — a discrete one recognizing, a
///   continuous one beginning — wins, and every other competitor is cancelled and its pending
///   events dropped. Members of one `simultaneous` group do not cancel each other.
///   Claims in the same frame are settled in the order of `recognizers` (priority).
/// - `requiresFailureOf`: a recognizer that claims while one of its prerequisites is still
///   undecided waits; its events are held (a continuous one's `changed` events are coalesced
///   into the latest, so holding is bounded). When all prerequisites fail, it wins and the held
///   events are delivered; when one of them wins, it loses and the events are dropped.
/// - `yieldsTo`: a continuous recognizer that begins while one it yields to is still undecided
///   does not wait: it is provisional. Its events go out at once, except its `ended`, which waits
///   for them; it does not cancel them, and takes no contact yet. When all of them fail it wins
///   (and cancels its other rivals as any winner does); when one of them wins it is cancelled and
///   delivers `cancelled` (a held `ended` becomes `cancelled`). A discrete recognizer's
///   recognition cannot be taken back, so it waits for them as for prerequisites.
/// - A contact cancelled in a frame (palm, SYN_DROPPED, unplug) cancels every recognizer that
///   saw it; a winner delivers its `cancelled` event.
/// - When no contact is down any more, recognizers that can no longer decide are failed,
///   finished ones are reset, and one that still waits on a timer (a tap waiting for a second
///   tap) is carried into the next sequence. A carried recognizer's decision belongs to the
///   sequence it started in, where every rival has already finished: its events are delivered
///   at once and it neither cancels nor is cancelled by the new sequence's recognizers. Once it
///   has reported and is `possible` again, it competes in the new sequence like any other.
/// - A disabled recognizer sees nothing and blocks nobody; one enabled during a sequence joins
///   at the next sequence.
///
/// - Contact claims (for passthrough, see ContactClaims): a recognizer that wins has taken
///   every contact it saw in the sequence, and every contact it sees later while it holds the win.
///   A contact is still contested while some recognizer that saw it is undecided (a provisional
///   one included), or is carried with a timer.
///
/// Steady state allocates nothing: events, filtered frames and id sets live in per-recognizer
/// buffers that are cleared keeping their capacity.
public final class GestureArena {
    public private(set) var recognizers: [any GestureRecognizer]
    public let rules: ArenaRules
    public let regions: [Region]

    private let entries: EntryList
    private let switchboard: Switchboard
    private var scratch: [GestureEvent] = []
    /// Events produced outside handle/tick (disabling a winner), delivered at the next call.
    private var outbox: [GestureEvent] = []
    /// Contacts taken by winners since the last drainClaims (ids may repeat).
    private var claims: [Int32] = []
    private var contactsDown = 0
    /// Where the arena is between touch sequences.
    private enum Phase {
        /// No contact since the last sequence ended.
        case betweenSequences
        /// A touch sequence has started and not yet ended (some frame had contacts since all-up).
        case inSequence
        /// After cancelAll with fingers still down: input is ignored until they are all up.
        case ignoringUntilAllUp
    }
    private var phase = Phase.betweenSequences
    private var lastTime = 0.0
    /// The entries whose standing can still move (`ArenaStanding.seesInput`), one bit each in
    /// priority order: frames, timers and settling visit these alone, not the lost and the off.
    private var live: EntrySet
    /// Called with every move of a standing (and every impossible one, ignored), for debug
    /// logging; nil costs one test per move.
    public var transitionObserver: ((ArenaTransition) -> Void)? = nil
    /// Called with every impossible move (a bug in the arena, ignored: `move`), whatever the log
    /// level: the daemon reports it as an error. Debug builds stop on it first.
    public var impossibleTransitionObserver: ((ArenaTransition) -> Void)? = nil
    /// Nothing has moved since the last `settle`, which would find nothing to do: a frame that
    /// fires no timer skips the settle before its recognizers run, and one after which no
    /// recognizer changed state, produced an event or was cancelled skips the one after them
    /// (every decision of `settle` follows from a recognizer's state, an entry's pending events,
    /// or a standing moved by a timer, a switch or a cancellation, which all clear this).
    private var settled = false
    /// The earliest deadline of the recognizers still in play, kept up to date at the end of
    /// every call that can move one (handle, tick, cancelAll, setEnabled): read, not recomputed,
    /// by the daemon after every frame and by the timers check at the start of the next.
    private var nextDeadline: Double? = nil
    /// The entries whose cached deadline (`ArenaEntry.deadline`) may be out of date: their
    /// recognizer was ticked, cancelled or reset, or the group it reads took a frame it did not
    /// handle. A fed entry reports its deadline with its state; only these are asked again.
    private var staleDeadlines = EntrySet()
    /// Some cached deadline changed, or an entry joined or left `live`: the earliest is
    /// recomputed from the cache (no recognizer is asked).
    private var deadlinesMoved = false
    /// The carried entries (`ArenaStanding.carried`), kept by `move`.
    private var carried = EntrySet()
    /// Contacts that have appeared in this sequence. Every entry still fed frames has seen every
    /// frame of the sequence (hidden contacts stay hidden), so a frame with none new teaches
    /// no entry a contact: `see` runs only for frames that bring one.
    private var sequenceIDs: [Int32] = []
    /// The sequence's context, which the arena alone writes: its group takes each frame once for
    /// the entries that read it (`groupReaders`: the GroupReaders that see whole frames) instead
    /// of once by each, and is lent to every entry that sees whole frames with each call
    /// (`lends`; FrameContext says who may read it and for how long).
    private var context = FrameContext()
    private let groupReaders: EntrySet
    /// The entries with an excluded region, which see frames through their RegionFilter.
    private let filtered: EntrySet
    /// Which live entries are handed a frame (the routing rules and their reasons).
    private let routing: ArenaRouting
    /// The entries that see whole frames whose recognizer reported a finished state: until it
    /// is reset a frame changes nothing of it (RecognizerState.isFinished), so it is handed
    /// only the frames that cancel (a winner's cancellation moves its standing) and notes the
    /// contacts of those that bring one (a winner takes them). Its timers still fire
    /// (ArenaRouting, rule 3).
    private var finished = EntrySet()

    /// `routes`: apply the routing rules (ArenaRouting); off, every live recognizer is handed
    /// every frame — the same gestures, more work (a check of the rules, not for use).
    public init(recognizers: [any GestureRecognizer], rules: ArenaRules = ArenaRules(), regions: [Region] = [],
                routes: Bool = true) {
        self.recognizers = recognizers
        self.rules = rules
        self.regions = regions
        precondition(recognizers.count <= EntrySet.capacity, "an arena holds at most \(EntrySet.capacity) recognizers")
        let kinds = recognizers.map { $0.kind }
        let entries = recognizers.enumerated().map { i, r in
            ArenaEntry(r, index: i, regionFilter: RegionFilter(recognizer: r.kind, rules: rules, regions: regions))
        }
        for (i, e) in entries.enumerated() {
            let kind = kinds[i]
            for (j, other) in kinds.enumerated() {
                e.simultaneousWith.set(j, i == j || rules.simultaneous.contains { $0.contains(kind) && $0.contains(other) })
            }
            for p in rules.requiresFailureOf[kind] ?? [] {
                for (j, other) in kinds.enumerated() where other == p && j != i { e.prerequisites.set(j, true) }
            }
            for y in rules.yieldsTo[kind] ?? [] {
                for (j, other) in kinds.enumerated() where other == y && j != i { e.yieldsTo.set(j, true) }
            }
        }
        self.entries = EntryList(entries)
        var readers = EntrySet()
        for e in entries where e.regionFilter.hidesNothing && e.recognizer is any GroupReader {
            readers.set(e.index, true)
        }
        groupReaders = readers
        routing = ArenaRouting(entries, on: routes)
        var withRegions = EntrySet()
        for e in entries where !e.regionFilter.hidesNothing { withRegions.set(e.index, true) }
        filtered = withRegions
        live = EntrySet(all: entries.count)
        staleDeadlines = live
        switchboard = Switchboard(entries)
        scratch.reserveCapacity(16)
        outbox.reserveCapacity(4)
        claims.reserveCapacity(16)
        sequenceIDs.reserveCapacity(16)
    }

    // MARK: Input

    /// Feeds one frame to every enabled recognizer and emits the events that win arbitration.
    public func handle(_ frame: TouchFrame, emit: (GestureEvent) -> Void) {
        flushOutbox(emit)
        // A frame that only moves the sequence's one finger (almost every frame of a one-finger
        // stroke) is told by one test: its one contact is the sequence's only one, and moved or
        // stayed. The pass below would find it down and not new, and the sequence's group takes
        // it as its lone contact's move without testing it again (the group has taken every
        // frame of the sequence while a reader is live: its contact was down in the one before).
        let strokes = frame.contacts.count == 1 && sequenceIDs.count == 1 && frame.contacts[0].id == sequenceIDs[0]
            && (frame.contacts[0].phase == .moved || frame.contacts[0].phase == .stationary)
        var down = 1
        var cancels = false
        var bringsContact = false
        if !strokes {
            // One pass over any other frame for what the arena needs of it: how many contacts are
            // down, whether one was cancelled, whether one is new to the sequence.
            // (Indexed, not in a `withUnsafeBufferPointer` closure: reading `sequenceIDs` inside one
            // retained the array.)
            down = 0
            for k in frame.contacts.indices {
                let p = frame.contacts[k].phase
                if p.isDown { down &+= 1 } else if p == .cancelled { cancels = true }
                if !bringsContact && !sequenceIDs.contains(frame.contacts[k].id) { bringsContact = true }
            }
        }
        contactsDown = down
        if phase == .ignoringUntilAllUp {
            if contactsDown == 0 { phase = .betweenSequences }
            return
        }
        // Timers that fell due before this frame fire first, at their own time.
        fireDeadlines(now: frame.time)
        if !settled { settle(time: frame.time, emit: emit) }
        if phase == .betweenSequences { restartFinishedCarried() }
        if bringsContact { noteContacts(frame) }

        // Who handles the frame, and in which round. The sequence's group takes the frame after
        // the timers (a long press recognized at its deadline reads the group as it was) and
        // before its readers handle it; the live entries only lose members within a sequence,
        // so once no reader is live none reads it again before it is cleared. A frame that
        // cancels a contact cancels every entry but the carried ones: the carried readers'
        // `cancelled` reads the group without the frame (their own groups never took it), so
        // the group takes it after the first round and they handle it in a second.
        var first = live
        if sequenceIDs.count == 1 && contactsDown == 1 {
            // Rule 1, one finger so far (and no cancellation: it is down): nothing for the
            // multi-contact recognizers but noting the contact.
            let skipped = live.intersection(routing.multiContact)
            if bringsContact { entries.forEach(in: skipped) { e in see(frame, e) } }
            first = first.subtracting(skipped)
            // A reader among them did not see its group take the frame.
            staleDeadlines.formUnion(skipped.intersection(groupReaders))
            // Rule 2: no contact new to the sequence: the frame only moves its one finger.
            if !bringsContact { first = growLiftStroke(first, frame) }
        }
        if !cancels {
            // Rule 3: the finished entries are not handed a frame that cancels nothing.
            if bringsContact && first.intersects(finished) { seeFinished(first, frame) }
            first = first.subtracting(finished)
        }
        var second = EntrySet()
        let sharing = groupReaders.intersects(live)
        if sharing {
            if cancels {
                second = first.intersection(carried).intersection(groupReaders)
                first = first.subtracting(second)
            } else if strokes {
                context.takeLoneMove(frame)
            } else {
                context.take(frame)
            }
        }
        // The entries that gave something to settle, and the last of them.
        var movers = 0
        var mover = 0
        if frame.contacts.isEmpty {
            // Nobody is handed an empty frame; the readers' group took it all the same.
            staleDeadlines.formUnion(live.intersection(groupReaders))
        } else {
            feed(first, frame, cancels: cancels, newContacts: bringsContact, movers: &movers, mover: &mover, emit: emit)
            if sharing && cancels {
                context.take(frame)
                feed(second, frame, cancels: cancels, newContacts: bringsContact, movers: &movers, mover: &mover, emit: emit)
            }
        }
        if movers > 0 || !settled {
            if !(settled && !cancels && movers == 1 && deliveredAlone(mover, emit)) { settle(time: frame.time, emit: emit) }
        }
        if !frame.contacts.isEmpty { phase = .inSequence }
        if contactsDown == 0 && phase == .inSequence {
            endSequence(time: frame.time, emit: emit)
            phase = .betweenSequences
            settled = false
            sequenceIDs.removeAllKeepingCapacity()
        }
        refreshDeadline()
    }

    /// A frame that only moves the sequence's one finger, still down: the shapes of `set` decided
    /// at lift are not handed it; its sample goes into their stroke once, as the first of them
    /// would have added it. Returns the entries still to feed.
    @inline(__always)
    private func growLiftStroke(_ set: EntrySet, _ frame: TouchFrame) -> EntrySet {
        let skipped = set.intersection(routing.liftDeciders)
        guard !skipped.isEmpty, let stroke = routing.liftStroke else { return set }
        assert(onlyGrowStroke(skipped, frame), "arena: a shape decided at lift skipped on a frame that is not only a move of its finger")
        stroke._withUnsafeGuaranteedRef { $0.offer(frame.contacts[0]) }
        return set.subtracting(skipped)
    }

    /// The finished entries of `set`, not handed a frame that brings a contact, note it (a winner
    /// takes it). (Out of line: rare, and in line it kept the feeding loop out of `handle`.)
    @inline(never)
    private func seeFinished(_ set: EntrySet, _ frame: TouchFrame) {
        entries.forEach(in: set.intersection(finished)) { e in see(frame, e) }
    }

    /// Handing `frame` to each of `skipped` would only have grown the stroke (debug builds).
    @inline(never)
    private func onlyGrowStroke(_ skipped: EntrySet, _ frame: TouchFrame) -> Bool {
        entries.all.allSatisfy { e in
            !skipped.contains(e.index) || (e.recognizer as! any DecidedAtLift).onlyGrowsStroke(frame)
        }
    }

    /// Feeds a frame with contacts to the entries of `set`, in priority order, each through its
    /// view of it; counts those that gave something to settle and names the last.
    @inline(__always)
    private func feed(_ set: EntrySet, _ frame: TouchFrame, cancels: Bool, newContacts: Bool,
                      movers: inout Int, mover: inout Int, emit: (GestureEvent) -> Void) {
        if !cancels && !newContacts && !set.intersects(filtered) {
            // Most frames: every entry sees the frame whole and has nothing to note or cancel.
            entries.forEach(in: set) { e in
                guard handOver(frame, to: e, whole: true) else { return }
                movers += 1
                mover = e.index
            }
            return
        }
        entries.forEach(in: set) { e in
            let m: Bool
            if e.regionFilter.hidesNothing {
                m = feed(e, frame, whole: true, cancels: cancels, newContacts: newContacts, emit: emit)
            } else {
                let view = e.regionFilter.view(frame)
                m = !view.contacts.isEmpty
                    && feed(e, view, whole: false, cancels: view.hasCancellation, newContacts: newContacts, emit: emit)
            }
            if m {
                movers += 1
                mover = e.index
            }
        }
    }

    /// One recognizer's view of a frame (with contacts), to it. True when it gives the arena
    /// something to settle: it was cancelled, produced an event or changed state. Its state and
    /// deadline come back with the one call that hands it the frame.
    @inline(__always)
    private func feed(_ e: ArenaEntry, _ view: TouchFrame, whole: Bool, cancels: Bool, newContacts: Bool,
                      emit: (GestureEvent) -> Void) -> Bool {
        if newContacts { see(view, e) }
        if cancels && e.standing != .carried {
            cancel(e, time: view.time, emit: emit)
            return true
        }
        return handOver(view, to: e, whole: whole)
    }

    /// Hands entry `e`'s recognizer its view of a frame and takes in what it reports. True when
    /// it produced an event or changed state. `whole`: it sees the frame whole, and is lent the
    /// arena's context with it; otherwise (a region filter's view) it reads its own.
    @inline(__always)
    private func handOver(_ view: TouchFrame, to e: ArenaEntry, whole: Bool) -> Bool {
        let status = whole ? e.recognizer.handleReportingStatus(view, in: context, events: &e.pending)
            : e.recognizer.handleReportingStatus(view, events: &e.pending)
        if status.due != e.deadline {
            e.deadline = status.due
            deadlinesMoved = true
        }
        let produced = e.pending.count
        if produced != 0 {
            if produced >= 2 { coalesce(e) }
        } else if status.state == e.lastState {
            return false
        }
        e.lastState = status.state
        if status.state.isFinished { noteFinished(e) }
        return true
    }

    /// Entry `e`'s recognizer reported a finished state: it is not handed frames until it
    /// restarts (`handle`, `seeFinished`), unless it sees frames through a region filter. (Out of line:
    /// once per entry and sequence at most.)
    @inline(never)
    private func noteFinished(_ e: ArenaEntry) {
        if routing.skipsFinished && e.regionFilter.hidesNothing { finished.set(e.index, true) }
    }

    /// After a complete settle, one entry alone gave something to settle this frame (every
    /// other entry was fed and neither changed state nor produced an event): when it is a
    /// winner or a provisional gesture still in progress, settling would only deliver its
    /// events — every other entry's standing and state are those the last settle decided on —
    /// so they are delivered without it: a pan's `changed` on every frame no longer settles
    /// every frame. True when it did.
    private func deliveredAlone(_ i: Int, _ emit: (GestureEvent) -> Void) -> Bool {
        entries.with(i) { e in
            guard (e.standing == .won || e.standing == .provisional) && e.lastState.isActive else { return false }
            if e.standing == .won { deliver(e, emit) } else { deliverProvisional(e, emit) }
            return true
        }
    }

    /// Lets timeouts fire; `now` is on the same clock as frame times.
    public func tick(now: Double, emit: (GestureEvent) -> Void) {
        flushOutbox(emit)
        fireDeadlines(now: now)
        settle(time: now, emit: emit)
        if phase == .betweenSequences { restartFinishedCarried() }
        refreshDeadline()
    }

    /// Between sequences, a carried recognizer that has reported starts afresh.
    private func restartFinishedCarried() {
        entries.forEach(in: carried) { e in
            guard e.recognizer.state.isFinished else { return }
            move(e, .restart)
            settled = false
        }
    }

    /// The earliest deadline of any recognizer, for the daemon's single timer.
    public var deadline: Double? { nextDeadline }

    /// Re-reads the stale deadlines of the live entries, and the earliest when one moved: on most
    /// frames, neither (their fed entries reported unchanged deadlines).
    @inline(__always)
    private func refreshDeadline() {
        if deadlinesMoved || !staleDeadlines.isEmpty { refreshMovedDeadlines() }
    }

    private func refreshMovedDeadlines() {
        let stale = staleDeadlines.intersection(live)
        if !stale.isEmpty {
            entries.forEachTimed(in: stale) { e in
                let due = e.recognizerDeadline(context) ?? .infinity
                guard due != e.deadline else { return }
                e.deadline = due
                deadlinesMoved = true
            }
        }
        staleDeadlines = EntrySet()
        guard deadlinesMoved else { return }
        deadlinesMoved = false
        var d = Double.infinity
        entries.forEachTimed(in: live) { e in
            if e.deadline < d { d = e.deadline }
        }
        nextDeadline = d < .infinity ? d : nil
    }

    /// Cancels everything in flight (SYN_DROPPED, unplug, shutdown, reload). Contacts still down
    /// are ignored until they have all lifted: no recognizer sees half a touch.
    public func cancelAll(time: Double, emit: (GestureEvent) -> Void) {
        flushOutbox(emit)
        entries.forEach { _, e in
            if e.standing.isIn { cancel(e, time: time, emit: emit) }
        }
        entries.forEach { _, e in move(e, .restart) }
        phase = contactsDown > 0 ? .ignoringUntilAllUp : .betweenSequences
        contactsDown = 0
        settled = false
        sequenceIDs.removeAllKeepingCapacity()
        context.clear()
        staleDeadlines = EntrySet(all: entries.count)  // the group's readers read a cleared group
        refreshDeadline()
    }

    /// Enables or disables a recognizer by name (see Switchboard); false when no recognizer has
    /// that name. Disabling a winner cancels it, and its `cancelled` event is emitted at once.
    @discardableResult
    public func setEnabled(_ name: String, _ enabled: Bool, time: Double, emit: (GestureEvent) -> Void) -> Bool {
        flushOutbox(emit)
        guard let named = switchboard.entries(named: name) else { return false }
        settled = false
        for e in named {
            if enabled {
                if e.standing == .off { move(e, .switchOn(midSequence: phase == .inSequence)) }
            } else if e.standing != .off {
                if e.standing.isIn { cancel(e, time: time, emit: emit) }
                move(e, .switchOff)
            }
        }
        refreshDeadline()
        return true
    }

    /// As `setEnabled(_:_:time:emit:)`; a disabled winner's `cancelled` event is emitted with the
    /// next call to `handle`, `tick` or `cancelAll`.
    @discardableResult
    public func setEnabled(_ name: String, _ enabled: Bool) -> Bool {
        setEnabled(name, enabled, time: lastTime) { outbox.append($0) }
    }

    public func isEnabled(_ name: String) -> Bool { switchboard.isOn(name) }

    /// Whether the `changed` events of `kind` are built (ChangeReporting): off when nobody would
    /// see them (no binding on them, no client). On by default. False when no recognizer of
    /// that kind reports changes.
    @discardableResult
    public func reportChanges(of kind: GestureKind, _ on: Bool) -> Bool {
        var found = false
        for r in recognizers where r.kind == kind {
            guard let c = r as? any ChangeReporting else { continue }
            c.reportsChanges = on
            found = true
        }
        return found
    }

    // MARK: Arbitration

    @inline(__always)
    private func fireDeadlines(now: Double) {
        lastTime = now
        guard let due = nextDeadline, due <= now else { return }
        fireDue(now: now)
    }

    private func fireDue(now: Double) {
        entries.forEachTimed(in: live) { e in
            guard let t = e.recognizerDeadline(context), t <= now else { return }
            e.tick(now: now, context, events: &e.pending)
            e.lastState = e.recognizer.state
            if e.pending.count >= 2 { coalesce(e) }
            staleDeadlines.set(e.index, true)
            settled = false
        }
    }

    /// Settles claims in priority order: a failure can unblock a waiting recognizer earlier in
    /// the order, and a win cancels rivals, so passes repeat while some entry moved. Every move is
    /// one way (ArenaStanding.after), so it ends. Only the live entries can move.
    private func settle(time: Double, emit: (GestureEvent) -> Void) {
        var moved = true
        while moved {
            moved = false
            entries.forEach(in: live) { e in
                let i = e.index
                switch e.standing {
                case .off, .joiningNext, .lost:
                    return
                case .won:
                    deliver(e, emit)
                case .carried:
                    moved = settleCarried(i, e, time: time, emit: emit) || moved
                case .provisional:
                    moved = settleProvisional(i, e, time: time, emit: emit) || moved
                case .competing, .waiting:
                    switch state(e) {
                    case .failed, .cancelled:
                        move(e, .lose)
                        moved = true
                    case .possible:
                        return
                    case .recognized, .began, .changed, .ended:
                        if beatenByWinner(i, e) || anyWon(e.prerequisites) || anyWon(e.yieldsTo) {
                            cancel(e, time: time, emit: emit)
                            moved = true
                        } else if anyPending(e.prerequisites) {
                            move(e, .claimWhilePrerequisiteUndecided)
                        } else if anyPending(e.yieldsTo) {
                            // A discrete recognition cannot be taken back: it waits like a prerequisite.
                            if state(e) == .recognized {
                                move(e, .claimWhilePrerequisiteUndecided)
                            } else {
                                beginProvisionally(i, e, time: time, emit: emit)
                                moved = true
                            }
                        } else {
                            win(i, e, time: time, emit: emit)
                            moved = true
                        }
                    }
                }
            }
        }
        settled = true
    }

    /// The state of a live entry's recognizer, as the arena last took it in (`ArenaEntry.lastState`),
    /// without a call: settling reads it for every live entry in every pass.
    @inline(__always)
    private func state(_ e: ArenaEntry) -> RecognizerState {
        assert(e.lastState == e.recognizer.state, "arena: \(e.recognizer.name) changed state unseen")
        return e.lastState
    }

    /// A carried recognizer's events go out at once (with the contacts it saw: its decision).
    /// Once it has reported and is possible again it competes in this sequence; true then.
    private func settleCarried(_ i: Int, _ e: ArenaEntry, time: Double, emit: (GestureEvent) -> Void) -> Bool {
        let reported = !e.pending.isEmpty
        if reported { claims.append(contentsOf: e.seenIDs) }
        deliver(e, emit)
        guard reported && state(e) == .possible else { return false }
        move(e, .rejoin)
        if beatenByWinner(i, e) { cancel(e, time: time, emit: emit) }
        return true
    }

    /// A provisional entry delivers what it has (an `ended` waits); every recognizer it yields
    /// to failed: it wins; one of them won: it is cancelled (and says so). True when it moved.
    private func settleProvisional(_ i: Int, _ e: ArenaEntry, time: Double, emit: (GestureEvent) -> Void) -> Bool {
        let s = state(e)
        if s == .failed || s == .cancelled {
            deliver(e, emit)
            move(e, .lose)
        } else if anyWon(e.yieldsTo) {
            cancel(e, time: time, emit: emit)
        } else if !anyPending(e.yieldsTo) {
            win(i, e, time: time, emit: emit)
        } else {
            deliverProvisional(e, emit)
            return false
        }
        return true
    }

    /// Entry `i` begins while some recognizer it yields to is undecided: it delivers at once and
    /// cancels the rivals it neither yields to nor runs beside. It takes no contact yet.
    private func beginProvisionally(_ i: Int, _ p: ArenaEntry, time: Double, emit: (GestureEvent) -> Void) {
        move(p, .beginWhileYieldingUndecided)
        deliverProvisional(p, emit)
        entries.forEach(in: live) { e in
            let j = e.index
            guard j != i && e.standing.isRival && !p.simultaneousWith.contains(j) && !p.yieldsTo.contains(j) else { return }
            cancel(e, time: time, emit: emit)
        }
    }

    private func win(_ i: Int, _ w: ArenaEntry, time: Double, emit: (GestureEvent) -> Void) {
        // Rivals first: a provisional rival's `cancelled` goes out before the winner's events.
        entries.forEach(in: live) { e in
            let j = e.index
            guard j != i && e.standing.isRival && !w.simultaneousWith.contains(j) else { return }
            cancel(e, time: time, emit: emit)
        }
        move(w, .win)
        claims.append(contentsOf: w.seenIDs)
        deliver(w, emit)
    }

    /// Some other recognizer that may not run alongside entry `i` has already won, or began
    /// provisionally without yielding to `i`.
    private func beatenByWinner(_ i: Int, _ me: ArenaEntry) -> Bool {
        entries.contains(in: live) { e in
            let j = e.index
            return j != i && !me.simultaneousWith.contains(j)
                && (e.standing == .won || (e.standing == .provisional && !e.yieldsTo.contains(i)))
        }
    }

    private func anyWon(_ some: EntrySet) -> Bool {
        entries.contains(in: some.intersection(live)) { $0.standing == .won }
    }

    /// Some of these recognizers could still win.
    private func anyPending(_ some: EntrySet) -> Bool {
        entries.contains(in: some.intersection(live)) { p in
            guard p.standing.isRival || p.standing == .won else { return false }
            switch state(p) {
            case .failed, .cancelled: return false
            default: return true
            }
        }
    }

    /// Cancels entry `e`'s recognizer. One whose events have been going out says so: its
    /// `cancelled` is delivered (a provisional entry's held `ended` becomes that `cancelled`, so a
    /// binding on `ended` does not fire); anything else it produced is dropped.
    private func cancel(_ e: ArenaEntry, time: Double, emit: (GestureEvent) -> Void) {
        staleDeadlines.set(e.index, true)
        if e.standing.hasSpoken {
            if e.standing == .provisional, let k = e.pending.lastIndex(where: { $0.phase == .ended }) {
                e.pending[k].phase = .cancelled
                e.pending[k].time = time
            } else {
                e.cancel(time: time, context, events: &e.pending)
            }
            self.deliver(e, emit)
        } else {
            e.cancel(time: time, context, events: &scratch)
            scratch.removeAll(keepingCapacity: true)
        }
        move(e, .lose)
    }

    private func deliver(_ e: ArenaEntry, _ emit: (GestureEvent) -> Void) {
        guard !e.pending.isEmpty else { return }
        if regions.isEmpty {
            e.pending.withUnsafeBufferPointer { for k in $0.indices { emit($0[k]) } }
        } else {
            for ev in e.pending { emit(located(ev, e)) }
        }
        e.pending.removeAll(keepingCapacity: true)
    }

    /// As `deliver`, keeping a last `ended`: a provisional gesture ends only once it has won.
    private func deliverProvisional(_ e: ArenaEntry, _ emit: (GestureEvent) -> Void) {
        let n = e.pending.count
        guard n > 0 else { return }
        let keep = e.pending[n - 1].phase == .ended ? 1 : 0
        guard n > keep else { return }
        if regions.isEmpty {
            e.pending.withUnsafeBufferPointer { for k in 0..<(n - keep) { emit($0[k]) } }
        } else {
            for k in 0..<(n - keep) { emit(located(e.pending[k], e)) }
        }
        e.pending.removeFirst(e.pending.count - keep)
    }

    /// Every gesture carries the region of its position. A recognizer may name one itself (a
    /// circle names the region it encloses); otherwise it is the region containing the event's
    /// centre when the gesture is recognized or begins (swipes and edge swipes report their start
    /// point as centre), and the later phases of a continuous gesture keep the region it began in,
    /// so that a binding's `region` condition sees one gesture as a whole.
    private func located(_ ev: GestureEvent, _ e: ArenaEntry) -> GestureEvent {
        guard !regions.isEmpty else { return ev }
        var ev = ev
        if ev.regionName == nil {
            ev.regionName = ev.phase == .began || ev.phase == .recognized || e.region == nil
                ? StrokeGeometry.region(containing: ev.center, in: regions)?.internedName : e.region
        }
        if ev.phase == .began || ev.phase == .recognized { e.region = ev.regionName }
        return ev
    }

    /// Held `changed` events collapse into the latest one: holding a waiting pan stays bounded.
    private func coalesce(_ e: ArenaEntry) {
        while e.pending.count >= 2, e.pending[e.pending.count - 1].phase == .changed,
              e.pending[e.pending.count - 2].phase == .changed {
            e.pending.remove(at: e.pending.count - 2)
        }
    }

    @inline(__always)
    private func flushOutbox(_ emit: (GestureEvent) -> Void) {
        guard !outbox.isEmpty else { return }
        flushNonEmptyOutbox(emit)
    }

    private func flushNonEmptyOutbox(_ emit: (GestureEvent) -> Void) {
        for ev in outbox { emit(ev) }
        outbox.removeAll(keepingCapacity: true)
    }

    /// All contacts are up: settle what can no longer change, reset, carry timers over.
    private func endSequence(time: Double, emit: (GestureEvent) -> Void) {
        // Recognizers still undecided with no timer can never decide now: they fail. A winner
        // that did not end is cancelled (and says so).
        var failed = false
        entries.forEach(in: live) { e in
            guard e.standing != .carried && e.recognizerDeadline(context) == nil else { return }
            let s = e.recognizer.state
            if s == .possible || s.isActive {
                cancel(e, time: time, emit: emit)
                failed = true
            }
        }
        if failed { settle(time: time, emit: emit) }
        entries.forEach { _, e in
            let s = e.recognizer.state
            switch e.standing {
            case .off:
                return
            case .joiningNext:
                move(e, .restart)
            case .waiting, .provisional:
                // What it waits for outlives the sequence: a recognizer cannot wait that long.
                cancel(e, time: time, emit: emit)
                move(e, .restart)
            case .competing, .carried, .won, .lost:
                if !s.isFinished && e.recognizerDeadline(context) != nil && e.standing != .won {
                    move(e, .carryOver)
                } else if s.isFinished || e.standing == .lost {
                    move(e, .restart)
                }
            }
        }
        context.clear()
        staleDeadlines = EntrySet(all: entries.count)  // its readers read a cleared group
    }

    // MARK: Transitions

    /// The one place a standing changes: `ArenaStanding.after(_:)` decides, the entry's side
    /// effects follow the event (losing drops what was not delivered; restarting and switching
    /// off clear the sequence), `live` follows the standing, and the observer hears of it.
    /// An impossible pair is a bug in the arena: debug builds stop on it; a release daemon keeps
    /// the standing it had (a valid one) and reports the pair, rather than losing every device's
    /// gestures to one wrong move.
    private func move(_ e: ArenaEntry, _ event: ArenaStandingEvent) {
        let from = e.standing
        guard let to = from.after(event) else {
            impossible(e, from, event)
            return
        }
        switch event {
        case .lose: e.dropPending()
        case .restart, .switchOff:
            e.clearSequence()
            finished.set(e.index, false)
        default: break
        }
        staleDeadlines.set(e.index, true)  // reset, or now live again
        guard to != from else { return }
        e.standing = to
        live.set(e.index, to.seesInput)
        carried.set(e.index, to == .carried)
        deadlinesMoved = true  // it may have joined or left `live`
        transitionObserver?(ArenaTransition(recognizer: e.recognizer.name, from: from, event: event, to: to, time: lastTime))
    }

    /// An impossible move, reported to both observers (out of line: never taken).
    @inline(never)
    private func impossible(_ e: ArenaEntry, _ from: ArenaStanding, _ event: ArenaStandingEvent) {
        let t = ArenaTransition(recognizer: e.recognizer.name, from: from, event: event, to: nil, time: lastTime)
        transitionObserver?(t)
        impossibleTransitionObserver?(t)
        assertionFailure("arena: \(e.recognizer.name) cannot \(event) when \(from)")
    }

    // MARK: Contact claims

    /// Adds the frame's contacts new to this sequence to `sequenceIDs`.
    private func noteContacts(_ frame: TouchFrame) {
        for k in frame.contacts.indices {
            let id = frame.contacts[k].id
            if !sequenceIDs.contains(id) { sequenceIDs.append(id) }
        }
    }

    /// Notes the contacts entry `e` sees; a winner takes new ones at once.
    private func see(_ view: TouchFrame, _ e: ArenaEntry) {
        for k in view.contacts.indices {
            let id = view.contacts[k].id
            guard !e.seenIDs.contains(id) else { continue }
            e.seenIDs.append(id)
            if e.standing == .won { claims.append(id) }
        }
    }
}


extension GestureArena: ContactClaims {
    public func drainClaims(_ body: (Int32) -> Void) {
        for id in claims { body(id) }
        claims.removeAllKeepingCapacity()
    }

    public func isContested(_ id: Int32) -> Bool {
        entries.contains(in: live) { e in e.seenIDs.contains(id) }
    }
}
