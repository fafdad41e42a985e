/// The arena's arbitration (GestureArena says the rules): it hands a routed frame to its entries
/// and takes in what they report, fires their timers, settles their claims in priority order —
/// wins, cancels, holds and delivers their events, carries a timer into the next sequence — and
/// notes the contacts winners take. It owns the entries (EntryList), the sequence's context
/// (FrameContext: it alone writes it), the caches of the standings (StandingSets) and of the
/// deadlines (ArenaDeadlines); every change of a standing goes through `move`.
///
/// Steady state allocates nothing: events, filtered frames and id sets live in per-recognizer
/// buffers that are cleared keeping their capacity.
final class ArenaArbiter {
    let entries: EntryList
    /// Which entries are handed a frame.
    private let routing: ArenaRouting
    private(set) var standings: StandingSets
    private(set) var deadlines: ArenaDeadlines
    /// The sequence's context: its group takes each frame once for the entries that read it
    /// (ArenaRoute.groupTakes) instead of once by each, and is lent to every entry that sees
    /// whole frames with each call (FrameContext says who may read it and for how long).
    private var context: FrameContext
    private let contextStorage = FrameContext.makeStorage()
    private let regions: [Region]
    private var scratch: [GestureEvent] = []
    /// Events produced outside handle/tick (disabling a winner), delivered at the next call.
    private var outbox: [GestureEvent] = []
    /// Contacts taken by winners since the last drainClaims (ids may repeat).
    private var claims: [Int32] = []
    /// The time of the last frame or tick, for the transitions' log.
    private(set) var lastTime = 0.0
    /// Nothing has moved since the last `settle`, which would find nothing to do: a frame that
    /// fires no timer skips the settle before its recognizers run, and one after which no
    /// recognizer changed state, produced an event or was cancelled skips the one after them
    /// (every decision of `settle` follows from a recognizer's state, an entry's pending events,
    /// or a standing moved by a timer, a switch or a cancellation, which all clear this).
    private(set) var settled = false
    var transitionObserver: ((ArenaTransition) -> Void)? = nil
    var impossibleTransitionObserver: ((ArenaTransition) -> Void)? = nil

    init(_ entries: [ArenaEntry], routing: ArenaRouting, regions: [Region]) {
        self.entries = EntryList(entries)
        self.routing = routing
        self.regions = regions
        context = FrameContext(in: contextStorage)
        standings = StandingSets(count: entries.count)
        deadlines = ArenaDeadlines(count: entries.count)
        scratch.reserveCapacity(16)
        outbox.reserveCapacity(4)
        claims.reserveCapacity(16)
    }

    // MARK: Timers

    /// Timers that fell due by `now` fire, at their own time.
    @inline(__always)
    func fireTimers(now: Double) {
        lastTime = now
        if let due = deadlines.next, due <= now { fireDue(now: now) }
    }

    private func fireDue(now: Double) {
        entries.forEachTimed(in: standings.live) { e in
            guard let t = e.recognizerDeadline(context), t <= now else { return }
            e.tick(now: now, context, events: &e.pending)
            e.lastState = e.recognizer.state
            if e.pending.count >= 2 { e.coalescePending() }
            deadlines.markStale(e.index)
            settled = false
        }
    }

    /// The earliest deadline, brought up to date after a call that can move one.
    @inline(__always)
    func refreshDeadline() { deadlines.refresh(entries, live: standings.live, context) }

    // MARK: Feeding

    /// Hands a frame to the entries the routing rules let see it (ArenaRouting), each through its
    /// view of it, and takes in what they report.
    @inline(__always)
    func feed(_ frame: TouchFrame, _ facts: FrameFacts, emit: (GestureEvent) -> Void) -> Movers {
        let route = routing.route(frame, facts, standings)
        prepare(frame, route, facts)
        return feed(frame, route, facts, emit: emit)
    }

    /// Before a routed frame is handed over: the entries not handed it note its contacts or grow
    /// their stroke, and the sequence's group takes it (ArenaRoute).
    @inline(__always)
    private func prepare(_ frame: TouchFrame, _ route: ArenaRoute, _ facts: FrameFacts) {
        if facts.bringsContact && !route.oneFingerSkipped.isEmpty {
            entries.forEach(in: route.oneFingerSkipped) { e in see(frame, e) }
        }
        deadlines.markStale(route.groupUnread)
        if !route.strokeOnly.isEmpty, let stroke = routing.liftStroke { grow(stroke, route.strokeOnly, frame) }
        if !route.finishedNoting.isEmpty { seeFinished(route.finishedNoting, frame) }
        switch route.groupTakes {
        case .frame: context.take(frame)
        case .loneMove: context.takeLoneMove(frame)
        case .never, .afterFirstRound: break
        }
    }

    /// Hands a routed frame to its entries, each through its view of it, and takes in what they
    /// report: most frames, whole to every entry with nothing to note or cancel, in line.
    @inline(__always)
    private func feed(_ frame: TouchFrame, _ route: ArenaRoute, _ facts: FrameFacts, emit: (GestureEvent) -> Void) -> Movers {
        guard route.wholeAndQuiet else {
            return feedRounds(frame, route.first, then: route.groupTakes == .afterFirstRound ? route.second : nil, facts,
                              emit: emit)
        }
        var movers = Movers()
        entries.forEach(in: route.first) { e in
            if handOver(frame, to: e, whole: true) { movers.add(e.index) }
        }
        return movers
    }

    /// As `feed`, for a frame some entry sees through a region filter, or that brings or cancels
    /// a contact: to `first`, then, after the group took it, to `second` (ArenaRoute.second).
    @inline(never)
    private func feedRounds(_ frame: TouchFrame, _ first: EntrySet, then second: EntrySet?, _ facts: FrameFacts,
                            emit: (GestureEvent) -> Void) -> Movers {
        var movers = Movers()
        feed(first, frame, facts, &movers, emit: emit)
        if let second {
            context.take(frame)
            feed(second, frame, facts, &movers, emit: emit)
        }
        return movers
    }

    /// The shapes of `set` decided at lift are not handed a frame that only moves the sequence's
    /// one finger: its sample goes into their stroke once, as the first of them would have added it.
    @inline(__always)
    private func grow(_ stroke: Borrowed<SharedStroke>, _ set: EntrySet, _ frame: TouchFrame) {
        assert(onlyGrowStroke(set, frame), "arena: a shape decided at lift skipped on a frame that is not only a move of its finger")
        stroke.with { $0.offer(frame.contacts[0]) }
    }

    /// Handing `frame` to each of `skipped` would only have grown the stroke (debug builds).
    @inline(never)
    private func onlyGrowStroke(_ skipped: EntrySet, _ frame: TouchFrame) -> Bool {
        entries.all.allSatisfy { e in
            !skipped.contains(e.index) || (e.recognizer as! any DecidedAtLift).onlyGrowsStroke(frame)
        }
    }

    /// The finished entries of `set`, not handed a frame that brings a contact, note it (a winner
    /// takes it). (Out of line: rare, and in line it kept the feeding loop out of `handle`.)
    @inline(never)
    private func seeFinished(_ set: EntrySet, _ frame: TouchFrame) {
        entries.forEach(in: set) { e in see(frame, e) }
    }

    /// Feeds a frame with contacts to the entries of `set`, in priority order, each through its
    /// view of it, that may note contacts or be cancelled.
    @inline(__always)
    private func feed(_ set: EntrySet, _ frame: TouchFrame, _ facts: FrameFacts, _ movers: inout Movers,
                      emit: (GestureEvent) -> Void) {
        entries.forEach(in: set) { e in
            let m: Bool
            if e.regionFilter.hidesNothing {
                m = feed(e, frame, whole: true, cancels: facts.cancels, newContacts: facts.bringsContact, emit: emit)
            } else {
                let view = e.regionFilter.view(frame)
                m = !view.contacts.isEmpty
                    && feed(e, view, whole: false, cancels: view.hasCancellation, newContacts: facts.bringsContact, emit: emit)
            }
            if m { movers.add(e.index) }
        }
    }

    /// One recognizer's view of a frame (with contacts), to it. True when it gives the arena
    /// something to settle: it was cancelled, produced an event or changed state.
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

    /// Hands entry `e`'s recognizer its view of a frame and takes in what it reports: its state
    /// and deadline come back with the one call. True when it produced an event or changed
    /// state. `whole`: it sees the frame whole, and is lent the context with it; otherwise (a
    /// region filter's view) it reads its own.
    @inline(__always)
    private func handOver(_ view: TouchFrame, to e: ArenaEntry, whole: Bool) -> Bool {
        let status = whole ? e.recognizer.handleReportingStatus(view, in: context, events: &e.pending)
            : e.recognizer.handleReportingStatus(view, events: &e.pending)
        if status.due != e.deadline {
            e.deadline = status.due
            deadlines.markMoved()
        }
        let produced = e.pending.count
        if produced != 0 {
            if produced >= 2 { e.coalescePending() }
        } else if status.state == e.lastState {
            return false
        }
        e.lastState = status.state
        if status.state.isFinished { noteFinished(e) }
        return true
    }

    /// Entry `e`'s recognizer reported a finished state: it is not handed frames until it
    /// restarts (routing rule 3), unless it sees frames through a region filter. (Out of line:
    /// once per entry and sequence at most.)
    @inline(never)
    private func noteFinished(_ e: ArenaEntry) {
        if routing.skipsFinished && e.regionFilter.hidesNothing { standings.reportedFinished(e.index) }
    }

    // MARK: Settling

    /// Settles what a frame's feeding moved. After a complete settle, when one entry alone gave
    /// something to settle and it is a winner or a provisional gesture still in progress,
    /// settling would only deliver its events — every other entry's standing and state are
    /// those the last settle decided on — so they are delivered without it: a pan's `changed`
    /// on every frame does not settle every frame.
    @inline(__always)
    func settleIfMoved(time: Double, emit: (GestureEvent) -> Void) {
        if !settled { settle(time: time, emit: emit) }
    }

    @inline(__always)
    func settle(after movers: Movers, cancels: Bool, time: Double, emit: (GestureEvent) -> Void) {
        guard movers.count > 0 || !settled else { return }
        if settled && !cancels && movers.count == 1 && deliveredAlone(movers.last, emit) { return }
        settle(time: time, emit: emit)
    }

    private func deliveredAlone(_ i: Int, _ emit: (GestureEvent) -> Void) -> Bool {
        entries.with(i) { e in
            guard (e.standing == .won || e.standing == .provisional) && e.lastState.isActive else { return false }
            if e.standing == .won { deliver(e, emit) } else { deliverProvisional(e, emit) }
            return true
        }
    }

    /// Settles claims in priority order: a failure can unblock a waiting recognizer earlier in
    /// the order, and a win cancels rivals, so passes repeat while some entry moved. Every move is
    /// one way (ArenaStanding.after), so it ends. Only the live entries can move.
    func settle(time: Double, emit: (GestureEvent) -> Void) {
        var moved = true
        while moved {
            moved = false
            entries.forEach(in: standings.live) { e in
                switch e.standing {
                case .off, .joiningNext, .lost:
                    return
                case .won:
                    deliver(e, emit)
                case .carried:
                    moved = settleCarried(e, time: time, emit: emit) || moved
                case .provisional:
                    moved = settleProvisional(e, time: time, emit: emit) || moved
                case .competing, .waiting:
                    moved = settleClaim(e, time: time, emit: emit) || moved
                }
            }
        }
        settled = true
    }

    /// A competing or waiting entry: its recognizer failed (it loses), claimed (it wins, waits,
    /// begins provisionally or is beaten), or is still possible. True when it moved.
    private func settleClaim(_ e: ArenaEntry, time: Double, emit: (GestureEvent) -> Void) -> Bool {
        switch state(e) {
        case .failed, .cancelled:
            move(e, .lose)
            return true
        case .possible:
            return false
        case .recognized, .began, .changed, .ended:
            if beatenByWinner(e) || anyWon(e.prerequisites) || anyWon(e.yieldsTo) {
                cancel(e, time: time, emit: emit)
            } else if anyPending(e.prerequisites) {
                move(e, .claimWhilePrerequisiteUndecided)
                return false
            } else if anyPending(e.yieldsTo) {
                // A discrete recognition cannot be taken back: it waits like a prerequisite.
                guard state(e) != .recognized else {
                    move(e, .claimWhilePrerequisiteUndecided)
                    return false
                }
                beginProvisionally(e, time: time, emit: emit)
            } else {
                win(e, time: time, emit: emit)
            }
            return true
        }
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
    private func settleCarried(_ e: ArenaEntry, time: Double, emit: (GestureEvent) -> Void) -> Bool {
        let reported = !e.pending.isEmpty
        if reported { claims.append(contentsOf: e.seenIDs) }
        deliver(e, emit)
        guard reported && state(e) == .possible else { return false }
        move(e, .rejoin)
        if beatenByWinner(e) { cancel(e, time: time, emit: emit) }
        return true
    }

    /// A provisional entry delivers what it has (an `ended` waits); every recognizer it yields
    /// to failed: it wins; one of them won: it is cancelled (and says so). True when it moved.
    private func settleProvisional(_ e: ArenaEntry, time: Double, emit: (GestureEvent) -> Void) -> Bool {
        let s = state(e)
        if s == .failed || s == .cancelled {
            deliver(e, emit)
            move(e, .lose)
        } else if anyWon(e.yieldsTo) {
            cancel(e, time: time, emit: emit)
        } else if !anyPending(e.yieldsTo) {
            win(e, time: time, emit: emit)
        } else {
            deliverProvisional(e, emit)
            return false
        }
        return true
    }

    /// Entry `p` begins while some recognizer it yields to is undecided: it delivers at once and
    /// cancels the rivals it neither yields to nor runs beside. It takes no contact yet.
    private func beginProvisionally(_ p: ArenaEntry, time: Double, emit: (GestureEvent) -> Void) {
        move(p, .beginWhileYieldingUndecided)
        deliverProvisional(p, emit)
        entries.forEach(in: standings.live) { e in
            let j = e.index
            guard j != p.index && e.standing.isRival && !p.simultaneousWith.contains(j) && !p.yieldsTo.contains(j) else { return }
            cancel(e, time: time, emit: emit)
        }
    }

    private func win(_ w: ArenaEntry, time: Double, emit: (GestureEvent) -> Void) {
        // Rivals first: a provisional rival's `cancelled` goes out before the winner's events.
        entries.forEach(in: standings.live) { e in
            let j = e.index
            guard j != w.index && e.standing.isRival && !w.simultaneousWith.contains(j) else { return }
            cancel(e, time: time, emit: emit)
        }
        move(w, .win)
        claims.append(contentsOf: w.seenIDs)
        deliver(w, emit)
    }

    /// Some other recognizer that may not run alongside `me` has already won, or began
    /// provisionally without yielding to it.
    private func beatenByWinner(_ me: ArenaEntry) -> Bool {
        let i = me.index
        return entries.contains(in: standings.live) { e in
            let j = e.index
            return j != i && !me.simultaneousWith.contains(j)
                && (e.standing == .won || (e.standing == .provisional && !e.yieldsTo.contains(i)))
        }
    }

    private func anyWon(_ some: EntrySet) -> Bool {
        entries.contains(in: some.intersection(standings.live)) { $0.standing == .won }
    }

    /// Some of these recognizers could still win.
    private func anyPending(_ some: EntrySet) -> Bool {
        entries.contains(in: some.intersection(standings.live)) { p in
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
        deadlines.markStale(e.index)
        if e.standing.hasSpoken {
            if e.standing == .provisional, let k = e.pending.lastIndex(where: { $0.phase == .ended }) {
                e.pending[k].phase = .cancelled
                e.pending[k].time = time
            } else {
                e.cancel(time: time, context, events: &e.pending)
            }
            deliver(e, emit)
        } else {
            e.cancel(time: time, context, events: &scratch)
            scratch.removeAll(keepingCapacity: true)
        }
        move(e, .lose)
    }

    // MARK: Delivering

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
        var ev = ev
        if ev.regionName == nil {
            ev.regionName = ev.phase == .began || ev.phase == .recognized || e.region == nil
                ? StrokeGeometry.region(containing: ev.center, in: regions)?.internedName : e.region
        }
        if ev.phase == .began || ev.phase == .recognized { e.region = ev.regionName }
        return ev
    }

    /// Holds an event produced outside a call that can emit, for the next one.
    func post(_ event: GestureEvent) { outbox.append(event) }

    @inline(__always)
    func flushOutbox(_ emit: (GestureEvent) -> Void) {
        guard !outbox.isEmpty else { return }
        flushNonEmptyOutbox(emit)
    }

    private func flushNonEmptyOutbox(_ emit: (GestureEvent) -> Void) {
        for ev in outbox { emit(ev) }
        outbox.removeAll(keepingCapacity: true)
    }

    // MARK: Carrying, restarting, switching

    /// All contacts are up: settle what can no longer change, reset, carry timers over.
    func endSequence(time: Double, emit: (GestureEvent) -> Void) {
        // Recognizers still undecided with no timer can never decide now: they fail. A winner
        // that did not end is cancelled (and says so).
        var failed = false
        entries.forEach(in: standings.live) { e in
            guard e.standing != .carried && e.recognizerDeadline(context) == nil else { return }
            let s = e.recognizer.state
            if s == .possible || s.isActive {
                cancel(e, time: time, emit: emit)
                failed = true
            }
        }
        if failed { settle(time: time, emit: emit) }
        entries.forEach { _, e in carryOrRestart(e, time: time, emit: emit) }
        clearSequence()
    }

    /// At the end of a sequence: a recognizer still waiting on a timer is carried into the next;
    /// a finished or lost one restarts.
    private func carryOrRestart(_ e: ArenaEntry, time: Double, emit: (GestureEvent) -> Void) {
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
            let s = e.recognizer.state
            if !s.isFinished && e.recognizerDeadline(context) != nil && e.standing != .won {
                move(e, .carryOver)
            } else if s.isFinished || e.standing == .lost {
                move(e, .restart)
            }
        }
    }

    /// The sequence is over (ended or cancelled): the next starts with a cleared group, which
    /// every reader reads.
    private func clearSequence() {
        settled = false
        context.clear()
        deadlines.markAllStale(count: entries.count)
    }

    /// Between sequences, a carried recognizer that has reported starts afresh.
    func restartFinishedCarried() {
        entries.forEach(in: standings.carried) { e in
            guard e.recognizer.state.isFinished else { return }
            move(e, .restart)
            settled = false
        }
    }

    /// Cancels everything in flight and restarts every entry.
    func cancelAll(time: Double, emit: (GestureEvent) -> Void) {
        entries.forEach { _, e in
            if e.standing.isIn { cancel(e, time: time, emit: emit) }
        }
        entries.forEach { _, e in move(e, .restart) }
        clearSequence()
    }

    /// Switches the entries `named` on (joining at the next sequence when one is under way) or off
    /// (a winner's `cancelled` is emitted).
    func switchEntries(_ named: [ArenaEntry], on: Bool, midSequence: Bool, time: Double, emit: (GestureEvent) -> Void) {
        settled = false
        for e in named {
            if on {
                if e.standing == .off { move(e, .switchOn(midSequence: midSequence)) }
            } else if e.standing != .off {
                if e.standing.isIn { cancel(e, time: time, emit: emit) }
                move(e, .switchOff)
            }
        }
    }

    // MARK: Transitions

    /// The one place a standing changes: `ArenaStanding.after(_:)` decides, the entry's side
    /// effects follow the event (losing drops what was not delivered; restarting and switching
    /// off clear the sequence), the caches follow the standing, and the observer hears of it.
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
            standings.restarted(e.index)
        default: break
        }
        deadlines.markStale(e.index)  // reset, or now live again
        guard to != from else { return }
        e.standing = to
        standings.moved(e.index, to: to)
        deadlines.markMoved()  // it may have joined or left `live`
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

    /// Notes the contacts entry `e` sees; a winner takes new ones at once.
    private func see(_ view: TouchFrame, _ e: ArenaEntry) {
        for k in view.contacts.indices {
            let id = view.contacts[k].id
            guard !e.seenIDs.contains(id) else { continue }
            e.seenIDs.append(id)
            if e.standing == .won { claims.append(id) }
        }
    }

    func drainClaims(_ body: (Int32) -> Void) {
        for id in claims { body(id) }
        claims.removeAllKeepingCapacity()
    }

    func isContested(_ id: Int32) -> Bool {
        entries.contains(in: standings.live) { e in e.seenIDs.contains(id) }
    }
}

/// The entries that gave something to settle in one frame: how many, and the last of them.
struct Movers {
    private(set) var count = 0
    private(set) var last = 0

    @inline(__always)
    mutating func add(_ i: Int) {
        count += 1
        last = i
    }
}
