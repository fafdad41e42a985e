/// Arbitrates between the recognizers of one device (UIKit's failure requirements and
/// simultaneous recognition, Flutter's arena). The rules, in the order they apply:
///
/// - A touch sequence runs from the first contact down to the frame where none is down.
///   Every enabled recognizer sees the sequence's frames, minus the contacts that began in a
///   region excluded for it (`ArenaRules.excludedRegions`; "*" applies to every recognizer).
/// - Exclusive by default: the first recognizer to claim — a discrete one recognizing, a
///   continuous one beginning — wins, and every other competitor is cancelled and its pending
///   events dropped. Members of one `simultaneous` group do not cancel each other.
///   Claims in the same frame are settled in the order of `recognizers` (priority).
/// - `requiresFailureOf`: a recognizer that claims while one of its prerequisites is still
///   undecided waits; its events are held (a continuous one's `changed` events are coalesced
///   into the latest, so holding is bounded). When all prerequisites fail, it wins and the held
///   events are delivered; when one of them wins, it loses and the events are dropped.
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
///   A contact is still contested while some recognizer that saw it is undecided, or is carried
///   with a timer.
///
/// Steady state allocates nothing: events, filtered frames and id sets live in per-recognizer
/// buffers that are cleared keeping their capacity.
public final class GestureArena {
    public private(set) var recognizers: [any GestureRecognizer]
    public let rules: ArenaRules
    public let regions: [Region]

    private enum Status { case competing, waiting, won, lost }

    private final class Entry {
        let recognizer: any GestureRecognizer
        var enabled = true
        /// Enabled during a sequence: joins at the next one.
        var dormant = false
        var status = Status.competing
        var carried = false
        /// Events produced but not yet delivered.
        var pending: [GestureEvent] = []
        /// Excluded region rectangles, contacts that began in them, and the filtered frame.
        var excludedRects: [Rect] = []
        var excludedIDs: [Int32] = []
        /// Contacts this recognizer has seen since its last restart (claimed when it wins).
        var seenIDs: [Int32] = []
        var filtered = TouchFrame(time: 0, surface: Surface(widthMM: 1, heightMM: 1, isDirect: true))
        /// Indices of prerequisites, and for each entry whether it may run alongside this one.
        var prerequisites: [Int] = []
        var simultaneousWith: [Bool] = []
        /// The region the gesture in progress began in (see `located`).
        var region: String?

        init(_ r: any GestureRecognizer) {
            recognizer = r
            pending.reserveCapacity(16)
            excludedIDs.reserveCapacity(16)
            seenIDs.reserveCapacity(16)
            filtered.contacts.reserveCapacity(16)
        }

        var participates: Bool { enabled && !dormant }
    }

    private let entries: [Entry]
    private var scratch: [GestureEvent] = []
    /// Events produced outside handle/tick (disabling a winner), delivered at the next call.
    private var outbox: [GestureEvent] = []
    /// Contacts taken by winners since the last drainClaims (ids may repeat).
    private var claims: [Int32] = []
    private var contactsDown = 0
    /// A touch sequence has started and not yet ended (some frame had contacts since all-up).
    private var inSequence = false
    /// After cancelAll with fingers still down: ignore input until they are all up.
    private var ignoringUntilAllUp = false

    public init(recognizers: [any GestureRecognizer], rules: ArenaRules = ArenaRules(), regions: [Region] = []) {
        self.recognizers = recognizers
        self.rules = rules
        self.regions = regions
        let entries = recognizers.map { Entry($0) }
        let names = recognizers.map { $0.name }
        for (i, e) in entries.enumerated() {
            let name = names[i]
            for (j, other) in names.enumerated() {
                e.simultaneousWith.append(i == j || rules.simultaneous.contains { $0.contains(name) && $0.contains(other) })
            }
            for p in rules.requiresFailureOf[name] ?? [] {
                for (j, other) in names.enumerated() where other == p && j != i { e.prerequisites.append(j) }
            }
            var excluded = rules.excludedRegions[name] ?? []
            excluded += rules.excludedRegions["*"] ?? []
            for r in regions where excluded.contains(r.name) || excluded.contains("*") { e.excludedRects.append(r.rect) }
        }
        self.entries = entries
        scratch.reserveCapacity(16)
        outbox.reserveCapacity(4)
        claims.reserveCapacity(16)
    }

    // MARK: Input

    /// Feeds one frame to every enabled recognizer and emits the events that win arbitration.
    public func handle(_ frame: TouchFrame, emit: (GestureEvent) -> Void) {
        flushOutbox(emit)
        contactsDown = frame.downCount
        if ignoringUntilAllUp {
            if contactsDown == 0 { ignoringUntilAllUp = false }
            return
        }
        // Timers that fell due before this frame fire first, at their own time.
        fireDeadlines(now: frame.time)
        resolve(time: frame.time, emit: emit)
        if !inSequence { restartFinishedCarried() }

        for e in entries where e.participates && (e.status != .lost || e.carried) {
            let view = visibleFrame(for: e, frame)
            guard !view.contacts.isEmpty else { continue }
            see(view, e)
            if view.hasCancellation && !e.carried {
                cancel(e, time: frame.time, deliver: e.status == .won, emit: emit)
                continue
            }
            e.recognizer.handle(view, events: &e.pending)
            coalesce(e)
        }
        resolve(time: frame.time, emit: emit)
        if !frame.contacts.isEmpty { inSequence = true }
        if contactsDown == 0 && inSequence {
            endSequence(time: frame.time, emit: emit)
            inSequence = false
        }
    }

    /// Lets timeouts fire; `now` is on the same clock as frame times.
    public func tick(now: Double, emit: (GestureEvent) -> Void) {
        flushOutbox(emit)
        fireDeadlines(now: now)
        resolve(time: now, emit: emit)
        if !inSequence { restartFinishedCarried() }
    }

    /// Between sequences, a carried recognizer that has reported starts afresh.
    private func restartFinishedCarried() {
        for e in entries where e.carried && e.recognizer.state.isFinished { restart(e) }
    }

    /// The earliest deadline of any recognizer, for the daemon's single timer.
    public var deadline: Double? {
        var d: Double? = nil
        for e in entries where e.participates && (e.status != .lost || e.carried) {
            if let t = e.recognizer.deadline, t < (d ?? .infinity) { d = t }
        }
        return d
    }

    /// Cancels everything in flight (SYN_DROPPED, unplug, shutdown, reload). Contacts still down
    /// are ignored until they have all lifted: no recognizer sees half a touch.
    public func cancelAll(time: Double, emit: (GestureEvent) -> Void) {
        flushOutbox(emit)
        for e in entries where e.participates {
            cancel(e, time: time, deliver: e.status == .won || e.carried, emit: emit)
        }
        for e in entries { restart(e) }
        if contactsDown > 0 { ignoringUntilAllUp = true }
        contactsDown = 0
        inSequence = false
    }

    /// Enables or disables a recognizer by name; false when no recognizer has that name.
    /// Disabling cancels it (a winner's `cancelled` event is emitted with the next call).
    @discardableResult
    public func setEnabled(_ name: String, _ enabled: Bool) -> Bool {
        var found = false
        for e in entries where e.recognizer.name == name {
            found = true
            guard e.enabled != enabled else { continue }
            if !enabled {
                if e.participates && (e.status == .won || e.carried) {
                    let first = outbox.count
                    e.recognizer.cancel(time: lastTime, events: &outbox)
                    for k in first..<outbox.count { outbox[k] = located(outbox[k], e) }
                } else {
                    e.recognizer.cancel(time: lastTime, events: &scratch)
                    scratch.removeAll(keepingCapacity: true)
                }
                restart(e)
                e.enabled = false
            } else {
                e.enabled = true
                e.dormant = inSequence
            }
        }
        return found
    }

    public func isEnabled(_ name: String) -> Bool {
        entries.contains { $0.recognizer.name == name && $0.enabled }
    }

    // MARK: Arbitration

    private var lastTime = 0.0

    private func fireDeadlines(now: Double) {
        lastTime = now
        for e in entries where e.participates && (e.status != .lost || e.carried) {
            if let t = e.recognizer.deadline, t <= now {
                e.recognizer.tick(now: now, events: &e.pending)
                coalesce(e)
            }
        }
    }

    /// Settles claims until nothing changes: failures can unblock waiters, wins cancel rivals.
    private func resolve(time: Double, emit: (GestureEvent) -> Void) {
        var changed = true
        while changed {
            changed = false
            for (i, e) in entries.enumerated() where e.participates {
                if e.carried {
                    let reported = !e.pending.isEmpty
                    // A carried recognizer that reports has taken what it saw (its decision).
                    if reported { claims.append(contentsOf: e.seenIDs) }
                    deliver(e, emit)
                    if reported && e.recognizer.state == .possible {
                        // Reported its old sequence; now judged in this one.
                        e.carried = false
                        e.status = .competing
                        if beatenByWinner(i) { cancel(e, time: time, deliver: false, emit: emit) }
                        changed = true
                    }
                    continue
                }
                switch e.status {
                case .lost:
                    continue
                case .won:
                    deliver(e, emit)
                    continue
                case .competing, .waiting:
                    break
                }
                switch e.recognizer.state {
                case .failed, .cancelled:
                    e.status = .lost
                    e.pending.removeAll(keepingCapacity: true)
                    changed = true
                case .possible:
                    continue
                case .recognized, .began, .changed, .ended:
                    if beatenByWinner(i) || prerequisiteWon(e) {
                        cancel(e, time: time, deliver: false, emit: emit)
                        changed = true
                    } else if prerequisitesPending(e) {
                        e.status = .waiting
                    } else {
                        win(i, time: time, emit: emit)
                        changed = true
                    }
                }
            }
        }
    }

    private func win(_ i: Int, time: Double, emit: (GestureEvent) -> Void) {
        let w = entries[i]
        w.status = .won
        claims.append(contentsOf: w.seenIDs)
        deliver(w, emit)
        for (j, e) in entries.enumerated() where j != i && e.participates && !e.carried && !w.simultaneousWith[j] {
            if e.status == .competing || e.status == .waiting {
                cancel(e, time: time, deliver: false, emit: emit)
            }
        }
    }

    /// Some other recognizer that may not run alongside entry `i` has already won.
    private func beatenByWinner(_ i: Int) -> Bool {
        let me = entries[i]
        for (j, e) in entries.enumerated() where j != i && e.participates && !e.carried && e.status == .won {
            if !me.simultaneousWith[j] { return true }
        }
        return false
    }

    private func prerequisiteWon(_ e: Entry) -> Bool {
        for j in e.prerequisites {
            let p = entries[j]
            if p.participates && !p.carried && p.status == .won { return true }
        }
        return false
    }

    private func prerequisitesPending(_ e: Entry) -> Bool {
        for j in e.prerequisites {
            let p = entries[j]
            guard p.participates, !p.carried, p.status != .lost else { continue }
            switch p.recognizer.state {
            case .failed, .cancelled: continue
            default: return true
            }
        }
        return false
    }

    private func cancel(_ e: Entry, time: Double, deliver: Bool, emit: (GestureEvent) -> Void) {
        if deliver {
            e.recognizer.cancel(time: time, events: &e.pending)
            self.deliver(e, emit)
        } else {
            e.recognizer.cancel(time: time, events: &scratch)
            scratch.removeAll(keepingCapacity: true)
            e.pending.removeAll(keepingCapacity: true)
        }
        e.status = .lost
        e.carried = false
    }

    private func deliver(_ e: Entry, _ emit: (GestureEvent) -> Void) {
        guard !e.pending.isEmpty else { return }
        for ev in e.pending { emit(located(ev, e)) }
        e.pending.removeAll(keepingCapacity: true)
    }

    /// Every gesture carries the region of its position. A recognizer may name one itself (a
    /// circle names the region it encloses); otherwise it is the region containing the event's
    /// centre when the gesture is recognized or begins (swipes and edge swipes report their start
    /// point as centre), and the later phases of a continuous gesture keep the region it began in,
    /// so that a binding's `region` condition sees one gesture as a whole.
    private func located(_ ev: GestureEvent, _ e: Entry) -> GestureEvent {
        guard !regions.isEmpty else { return ev }
        var ev = ev
        if ev.region == nil {
            ev.region = ev.phase == .began || ev.phase == .recognized || e.region == nil
                ? StrokeGeometry.region(containing: ev.center, in: regions)?.name : e.region
        }
        if ev.phase == .began || ev.phase == .recognized { e.region = ev.region }
        return ev
    }

    /// Held `changed` events collapse into the latest one: holding a waiting pan stays bounded.
    private func coalesce(_ e: Entry) {
        while e.pending.count >= 2, e.pending[e.pending.count - 1].phase == .changed,
              e.pending[e.pending.count - 2].phase == .changed {
            e.pending.remove(at: e.pending.count - 2)
        }
    }

    private func flushOutbox(_ emit: (GestureEvent) -> Void) {
        guard !outbox.isEmpty else { return }
        for ev in outbox { emit(ev) }
        outbox.removeAll(keepingCapacity: true)
    }

    /// All contacts are up: settle what can no longer change, reset, carry timers over.
    private func endSequence(time: Double, emit: (GestureEvent) -> Void) {
        // Recognizers still undecided with no timer can never decide now: they fail. A winner
        // that did not end is cancelled (and says so).
        var changed = false
        for e in entries where e.participates && !e.carried && e.recognizer.deadline == nil {
            let s = e.recognizer.state
            if s == .possible || s.isActive {
                cancel(e, time: time, deliver: e.status == .won, emit: emit)
                changed = true
            }
        }
        if changed { resolve(time: time, emit: emit) }
        for e in entries {
            if !e.participates {
                if e.enabled { restart(e) }
                continue
            }
            let s = e.recognizer.state
            if e.status == .waiting {
                // Its prerequisite outlives the sequence: a recognizer cannot wait that long.
                cancel(e, time: time, deliver: false, emit: emit)
                restart(e)
            } else if !s.isFinished && e.recognizer.deadline != nil && e.status != .won {
                e.carried = true
                e.status = .competing
            } else if s.isFinished || e.status == .lost {
                restart(e)
            }
        }
    }

    /// Back to the start of a sequence for one entry.
    private func restart(_ e: Entry) {
        e.recognizer.reset()
        e.status = .competing
        e.carried = false
        e.dormant = false
        e.pending.removeAll(keepingCapacity: true)
        e.excludedIDs.removeAll(keepingCapacity: true)
        e.seenIDs.removeAll(keepingCapacity: true)
        e.region = nil
    }

    // MARK: Contact claims

    /// Notes the contacts entry `e` sees; a winner takes new ones at once.
    private func see(_ view: TouchFrame, _ e: Entry) {
        for c in view.contacts where !e.seenIDs.contains(c.id) {
            e.seenIDs.append(c.id)
            if e.status == .won && !e.carried { claims.append(c.id) }
        }
    }

    /// The frame as entry `e` may see it: without contacts that began in its excluded regions.
    private func visibleFrame(for e: Entry, _ frame: TouchFrame) -> TouchFrame {
        guard !e.excludedRects.isEmpty else { return frame }
        for c in frame.contacts where c.phase == .began {
            for r in e.excludedRects where r.contains(c.position) {
                e.excludedIDs.append(c.id)
                break
            }
        }
        if e.excludedIDs.isEmpty { return frame }
        e.filtered.time = frame.time
        e.filtered.surface = frame.surface
        e.filtered.contacts.removeAll(keepingCapacity: true)
        for c in frame.contacts where !e.excludedIDs.contains(c.id) { e.filtered.contacts.append(c) }
        return e.filtered
    }
}


extension GestureArena: ContactClaims {
    public func drainClaims(_ body: (Int32) -> Void) {
        for id in claims { body(id) }
        claims.removeAll(keepingCapacity: true)
    }

    public func isContested(_ id: Int32) -> Bool {
        for e in entries where e.participates && e.seenIDs.contains(id) {
            if e.carried { return true }
            switch e.status {
            case .competing, .waiting, .won: return true
            case .lost: continue
            }
        }
        return false
    }
}
