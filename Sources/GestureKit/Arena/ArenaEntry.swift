/// One recognizer's place in a GestureArena: where it stands, what it has produced and seen.
final class ArenaEntry {
    /// Where a recognizer stands in the current touch sequence: one state with named transitions
    /// (libinput's touchpad gesture states), in Flutter's arena vocabulary — an entry is added
    /// when a sequence starts, holds while a prerequisite is undecided, wins or loses (sweep),
    /// and is carried past the sequence's end while it waits on a timer.
    enum Standing {
        /// Switched off: sees nothing, blocks nobody.
        case off
        /// Switched on during a sequence whose start it did not see: joins at the next one.
        case joiningNext
        /// In the sequence, not claimed (possible), or claimed and not yet settled.
        case competing
        /// Claimed while a prerequisite (`requiresFailureOf`) is undecided: events held.
        case held
        /// A continuous recognizer that began while some recognizer it yields to (`yieldsTo`) is
        /// undecided: its events go out as they come, except an `ended`, which waits for them.
        /// It has taken no contact yet. They all fail: it wins; one of them wins: it is cancelled.
        case provisional
        /// Claimed and won: its events are delivered as they come.
        case won
        /// Failed, or cancelled by a winner: sees nothing more of this sequence.
        case lost
        /// Waits on a timer from a sequence that ended (a tap waiting for a second tap). Its
        /// decision belongs to that sequence, where every rival has finished: its events go out
        /// at once, and it neither cancels nor is cancelled by the new sequence's recognizers.
        case carried

        /// Takes part in the current sequence (switched on, and saw its start).
        var isIn: Bool { self != .off && self != .joiningNext }
        /// Still fed frames and timers.
        var seesInput: Bool {
            switch self {
            case .competing, .held, .provisional, .won, .carried: true
            case .off, .joiningNext, .lost: false
            }
        }
        /// Its events go out as they come: cancelled, it must say so.
        var hasSpoken: Bool { self == .won || self == .provisional || self == .carried }
        /// Undecided in this sequence: a winner it cannot run beside cancels it.
        var isRival: Bool { self == .competing || self == .held || self == .provisional }
    }

    let recognizer: any GestureRecognizer
    private(set) var standing = Standing.competing
    /// Events produced but not yet delivered.
    var pending: [GestureEvent] = []
    /// Contacts this recognizer has seen since its last restart (claimed when it wins).
    var seenIDs: [Int32] = []
    var regionFilter: RegionFilter
    /// Indices of prerequisites, of the recognizers it yields to, and for each entry whether it
    /// may run alongside this one.
    var prerequisites: [Int] = []
    var yieldsTo: [Int] = []
    var simultaneousWith: [Bool] = []
    /// The region the gesture in progress began in (see GestureArena.located).
    var region: String?

    init(_ r: any GestureRecognizer, regionFilter: RegionFilter) {
        recognizer = r
        self.regionFilter = regionFilter
        pending.reserveCapacity(16)
        seenIDs.reserveCapacity(16)
    }

    // MARK: Transitions

    /// Claimed while a prerequisite is undecided.
    func hold() { standing = .held }
    /// Began while a recognizer it yields to is undecided.
    func beginProvisionally() { standing = .provisional }
    func win() { standing = .won }
    /// Failed or cancelled: what it produced and did not deliver is dropped.
    func lose() {
        standing = .lost
        pending.removeAll(keepingCapacity: true)
    }
    /// The sequence ended while it waits on a timer.
    func carry() { standing = .carried }
    /// A carried recognizer reported its old sequence and is possible again: it competes in this one.
    func rejoin() { standing = .competing }

    /// Back to the start of a sequence (one switched off stays off).
    func restart() {
        recognizer.reset()
        if standing != .off { standing = .competing }
        pending.removeAll(keepingCapacity: true)
        seenIDs.removeAll(keepingCapacity: true)
        regionFilter.reset()
        region = nil
    }

    func switchOff() {
        restart()
        standing = .off
    }

    /// Switched on: it joins now between sequences, at the next one during a sequence.
    func switchOn(midSequence: Bool) {
        guard standing == .off else { return }
        standing = midSequence ? .joiningNext : .competing
    }
}
