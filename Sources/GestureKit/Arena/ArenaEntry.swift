/// One recognizer's place in a GestureArena: where it stands, what it has produced and seen.
final class ArenaEntry {
    let recognizer: any GestureRecognizer
    /// Set only by ArenaArbiter.move, through `ArenaStanding.after(_:)`.
    var standing = ArenaStanding.competing
    /// Its index in the arena (priority order): its bit in the arena's sets of entries.
    let index: Int
    /// Events produced but not yet delivered.
    var pending: [GestureEvent] = []
    /// Contacts this recognizer has seen since its last restart (claimed when it wins).
    var seenIDs: [Int32] = []
    var regionFilter: RegionFilter
    /// Its prerequisites, the recognizers it yields to, and those that may run alongside it
    /// (itself included), by index.
    var prerequisites = EntrySet()
    var yieldsTo = EntrySet()
    var simultaneousWith = EntrySet()
    /// The region the gesture in progress began in (see ArenaArbiter.located).
    var region: InternedName?
    /// Its recognizer's state as the arena last took it in — every call that can change it while
    /// the entry is live reports it: a frame (`handleReportingStatus`), a tick, a reset (a cancel
    /// makes it lost). Settling reads it instead of asking, and a frame that changes no entry's
    /// state (and brings no event) gives the arena nothing to settle.
    var lastState = RecognizerState.possible
    /// Its recognizer's deadline as last read (infinity for none): the arena's earliest deadline
    /// is the least of these over the live timed entries, re-read only for the entries that
    /// something may have moved (ArenaDeadlines).
    var deadline = Double.infinity

    init(_ r: any GestureRecognizer, index: Int, regionFilter: RegionFilter) {
        recognizer = r
        self.index = index
        self.regionFilter = regionFilter
        pending.reserveCapacity(16)
        seenIDs.reserveCapacity(16)
    }

    /// Each entry's prerequisites, the entries it yields to and those it runs beside, from the
    /// rules' names of kinds.
    static func relate(_ entries: [ArenaEntry], by rules: ArenaRules) {
        let kinds = entries.map { $0.recognizer.kind }
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
    }

    // The arena's calls to its recognizer besides a frame (ArenaArbiter.handOver): in the
    // arena's `context` when it sees whole frames (lent for the call: FrameContext), in its own
    // when it sees them through its region filter.

    func recognizerDeadline(_ context: borrowing FrameContext) -> Double? {
        regionFilter.hidesNothing ? recognizer.deadline(in: context) : recognizer.deadline
    }

    func tick(now: Double, _ context: borrowing FrameContext, events: inout [GestureEvent]) {
        if regionFilter.hidesNothing {
            recognizer.tick(now: now, in: context, events: &events)
        } else {
            recognizer.tick(now: now, events: &events)
        }
    }

    func cancel(time: Double, _ context: borrowing FrameContext, events: inout [GestureEvent]) {
        if regionFilter.hidesNothing {
            recognizer.cancel(time: time, in: context, events: &events)
        } else {
            recognizer.cancel(time: time, events: &events)
        }
    }

    /// Held `changed` events collapse into the latest one: holding a waiting pan stays bounded.
    func coalescePending() {
        while pending.count >= 2, pending[pending.count - 1].phase == .changed,
              pending[pending.count - 2].phase == .changed {
            pending.remove(at: pending.count - 2)
        }
    }

    /// Lost: what it produced and did not deliver is dropped.
    func dropPending() { if !pending.isEmpty { pending.removeAll(keepingCapacity: true) } }

    /// Back to the start of a sequence: the recognizer and what the entry noted of the sequence.
    func clearSequence() {
        recognizer.reset()
        dropPending()
        seenIDs.removeAllKeepingCapacity()
        regionFilter.reset()
        if region != nil { region = nil }
        lastState = .possible
    }
}
