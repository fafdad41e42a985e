/// The arena's caches of its entries' standings, one bit per entry in priority order, so that
/// its passes visit only the entries concerned. Written in one place: `moved`, which
/// ArenaArbiter.move calls with every transition of a standing, and `reportedFinished`, which
/// it calls when a fed recognizer reports a finished state (undone by the restart's transition).
struct StandingSets {
    /// The entries whose standing can still move (`ArenaStanding.seesInput`): frames, timers
    /// and settling visit these alone, not the lost and the off.
    private(set) var live: EntrySet
    /// The carried entries (`ArenaStanding.carried`).
    private(set) var carried = EntrySet()
    /// The entries that see whole frames whose recognizer reported a finished state: until it is
    /// reset a frame changes nothing of it (RecognizerState.isFinished), so it is handed only the
    /// frames that cancel (ArenaRouting, rule 3).
    private(set) var finished = EntrySet()

    init(count: Int) { live = EntrySet(all: count) }

    /// Entry `i` moved to `standing` (or stayed, restarting: `restarted`).
    @inline(__always)
    mutating func moved(_ i: Int, to standing: ArenaStanding) {
        live.set(i, standing.seesInput)
        carried.set(i, standing == .carried)
    }

    /// Entry `i` restarted or was switched off: its recognizer is not finished any more.
    @inline(__always)
    mutating func restarted(_ i: Int) { finished.set(i, false) }

    /// Entry `i`'s recognizer reported a finished state.
    mutating func reportedFinished(_ i: Int) { finished.set(i, true) }
}
