/// The earliest deadline of an arena's live recognizers, kept up to date at the end of every
/// call that can move one (handle, tick, cancelAll, setEnabled): read, not recomputed, by the
/// daemon after every frame and by the timers check at the start of the next. Each entry's last
/// read deadline is cached on it (`ArenaEntry.deadline`); a fed entry reports its deadline with
/// its state, so only the entries marked stale are asked again.
struct ArenaDeadlines {
    private(set) var next: Double? = nil
    /// The entries whose cached deadline may be out of date: their recognizer was ticked,
    /// cancelled or reset, or the group it reads took a frame it did not handle.
    private var stale: EntrySet
    /// Some cached deadline changed, or an entry joined or left `live`: the earliest is
    /// recomputed from the cache (no recognizer is asked).
    private var moved = false

    init(count: Int) { stale = EntrySet(all: count) }

    @inline(__always)
    mutating func markStale(_ i: Int) { stale.set(i, true) }

    @inline(__always)
    mutating func markStale(_ set: EntrySet) { stale.formUnion(set) }

    /// Every entry: the group its readers read was cleared.
    mutating func markAllStale(count: Int) { stale = EntrySet(all: count) }

    /// An entry's cached deadline changed, or it joined or left the live entries.
    @inline(__always)
    mutating func markMoved() { moved = true }

    /// Re-reads the stale deadlines of the live entries, and the earliest when one moved: on most
    /// frames, neither (their fed entries reported unchanged deadlines).
    @inline(__always)
    mutating func refresh(_ entries: EntryList, live: EntrySet, _ context: borrowing FrameContext) {
        if moved || !stale.isEmpty { refreshMoved(entries, live: live, context) }
    }

    private mutating func refreshMoved(_ entries: EntryList, live: EntrySet, _ context: borrowing FrameContext) {
        let stale = stale.intersection(live)
        if !stale.isEmpty {
            entries.forEachTimed(in: stale) { e in
                let due = e.recognizerDeadline(context) ?? .infinity
                guard due != e.deadline else { return }
                e.deadline = due
                moved = true
            }
        }
        self.stale = EntrySet()
        guard moved else { return }
        moved = false
        var d = Double.infinity
        entries.forEachTimed(in: live) { e in
            if e.deadline < d { d = e.deadline }
        }
        next = d < .infinity ? d : nil
    }
}
