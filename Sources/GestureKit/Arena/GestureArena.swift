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
/// Who does what: ArenaRouting decides which entries are handed a frame, ArenaArbiter hands it
/// to them and settles, this class keeps the sequence's phase and says the order:
/// timers → route → feed → settle → end of sequence (`handle`).
public final class GestureArena {
    public private(set) var recognizers: [any GestureRecognizer]
    public let rules: ArenaRules
    public let regions: [Region]

    private var contacts = SequenceContacts()
    private let arbiter: ArenaArbiter
    private let switchboard: Switchboard
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

    /// Called with every move of a standing (and every impossible one, ignored), for debug
    /// logging; nil costs one test per move.
    public var transitionObserver: ((ArenaTransition) -> Void)? {
        get { arbiter.transitionObserver }
        set { arbiter.transitionObserver = newValue }
    }
    /// Called with every impossible move (a bug in the arena, ignored: ArenaArbiter.move),
    /// whatever the log level: the daemon reports it as an error. Debug builds stop on it first.
    public var impossibleTransitionObserver: ((ArenaTransition) -> Void)? {
        get { arbiter.impossibleTransitionObserver }
        set { arbiter.impossibleTransitionObserver = newValue }
    }

    /// `routes`: apply the routing rules (ArenaRouting); off, every live recognizer is handed
    /// every frame — the same gestures, more work (a check of the rules, not for use).
    public init(recognizers: [any GestureRecognizer], rules: ArenaRules = ArenaRules(), regions: [Region] = [],
                routes: Bool = true) {
        self.recognizers = recognizers
        self.rules = rules
        self.regions = regions
        precondition(recognizers.count <= EntrySet.capacity, "an arena holds at most \(EntrySet.capacity) recognizers")
        let entries = recognizers.enumerated().map { i, r in
            ArenaEntry(r, index: i, regionFilter: RegionFilter(recognizer: r.kind, rules: rules, regions: regions))
        }
        ArenaEntry.relate(entries, by: rules)
        arbiter = ArenaArbiter(entries, routing: ArenaRouting(entries, on: routes), regions: regions)
        switchboard = Switchboard(entries)
    }

    // MARK: Input

    /// Feeds one frame to every enabled recognizer and emits the events that win arbitration.
    public func handle(_ frame: TouchFrame, emit: (GestureEvent) -> Void) {
        arbiter.flushOutbox(emit)
        let facts = contacts.take(frame)
        contactsDown = facts.down
        if phase == .ignoringUntilAllUp {
            // The contacts taken in meanwhile belong to no sequence.
            if facts.down == 0 { phase = .betweenSequences }
            contacts.clear()
            return
        }
        // Timers that fell due before this frame fire first, at their own time.
        arbiter.fireTimers(now: frame.time)
        arbiter.settleIfMoved(time: frame.time, emit: emit)
        if phase == .betweenSequences { arbiter.restartFinishedCarried() }
        // Route and feed: who is handed the frame, in which round (ArenaRouting), and what
        // each reports; then settle what that moved.
        let movers = arbiter.feed(frame, facts, emit: emit)
        arbiter.settle(after: movers, cancels: facts.cancels, time: frame.time, emit: emit)
        // End of sequence: no contact is down any more.
        if !frame.contacts.isEmpty { phase = .inSequence }
        if facts.down == 0 && phase == .inSequence {
            arbiter.endSequence(time: frame.time, emit: emit)
            phase = .betweenSequences
            contacts.clear()
        }
        arbiter.refreshDeadline()
    }

    /// Lets timeouts fire; `now` is on the same clock as frame times.
    public func tick(now: Double, emit: (GestureEvent) -> Void) {
        arbiter.flushOutbox(emit)
        arbiter.fireTimers(now: now)
        arbiter.settle(time: now, emit: emit)
        if phase == .betweenSequences { arbiter.restartFinishedCarried() }
        arbiter.refreshDeadline()
    }

    /// The earliest deadline of any recognizer, for the daemon's single timer.
    public var deadline: Double? { arbiter.deadlines.next }

    /// Cancels everything in flight (SYN_DROPPED, unplug, shutdown, reload). Contacts still down
    /// are ignored until they have all lifted: no recognizer sees half a touch.
    public func cancelAll(time: Double, emit: (GestureEvent) -> Void) {
        arbiter.flushOutbox(emit)
        arbiter.cancelAll(time: time, emit: emit)
        phase = contactsDown > 0 ? .ignoringUntilAllUp : .betweenSequences
        contactsDown = 0
        contacts.clear()
        arbiter.refreshDeadline()
    }

    /// Enables or disables a recognizer by name (see Switchboard); false when no recognizer has
    /// that name. Disabling a winner cancels it, and its `cancelled` event is emitted at once.
    @discardableResult
    public func setEnabled(_ name: String, _ enabled: Bool, time: Double, emit: (GestureEvent) -> Void) -> Bool {
        arbiter.flushOutbox(emit)
        guard let named = switchboard.entries(named: name) else { return false }
        arbiter.switchEntries(named, on: enabled, midSequence: phase == .inSequence, time: time, emit: emit)
        arbiter.refreshDeadline()
        return true
    }

    /// As `setEnabled(_:_:time:emit:)`; a disabled winner's `cancelled` event is emitted with the
    /// next call to `handle`, `tick` or `cancelAll`.
    @discardableResult
    public func setEnabled(_ name: String, _ enabled: Bool) -> Bool {
        setEnabled(name, enabled, time: arbiter.lastTime) { arbiter.post($0) }
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
}

extension GestureArena: ContactClaims {
    public func drainClaims(_ body: (Int32) -> Void) { arbiter.drainClaims(body) }

    public func isContested(_ id: Int32) -> Bool { arbiter.isContested(id) }
}
