/// The arena's entries, walked without reference counting. Every frame passes over each entry
/// several times (timers, input, settling), and a loop over an array of class references
/// retains and releases each one it visits, with the recognizer it holds: that was a quarter of
/// the instructions per frame. The list owns its entries for the arena's whole life, so a
/// visit can borrow each one unretained (`_withUnsafeGuaranteedRef`): none can go away while
/// it is visited.
struct EntryList {
    /// Keeps the entries alive; `refs` holds the same objects, unretained.
    private let owned: [ArenaEntry]
    private let refs: [Unmanaged<ArenaEntry>]
    /// The entries whose recognizer may set a timer: an UntimedRecognizer never has a deadline,
    /// so the timer checks after every frame pass over these alone.
    private let timed: [Unmanaged<ArenaEntry>]

    init(_ entries: [ArenaEntry]) {
        owned = entries
        refs = entries.map { Unmanaged.passUnretained($0) }
        timed = entries.filter { !($0.recognizer is any UntimedRecognizer) }.map { Unmanaged.passUnretained($0) }
    }

    var all: [ArenaEntry] { owned }
    var count: Int { refs.count }

    /// Calls `body` with each entry and its index, in priority order.
    @inline(__always)
    func forEach(_ body: (Int, ArenaEntry) -> Void) {
        var i = 0
        while i < refs.count {
            refs[i]._withUnsafeGuaranteedRef { body(i, $0) }
            i += 1
        }
    }

    /// Calls `body` with each entry whose recognizer may have a deadline, in priority order.
    @inline(__always)
    func forEachTimed(_ body: (ArenaEntry) -> Void) {
        for r in timed { r._withUnsafeGuaranteedRef(body) }
    }

    /// `body` applied to entry `i`.
    @inline(__always)
    func with<R>(_ i: Int, _ body: (ArenaEntry) -> R) -> R {
        refs[i]._withUnsafeGuaranteedRef(body)
    }

    /// Some entry satisfies `predicate` (given the entry and its index).
    @inline(__always)
    func contains(where predicate: (Int, ArenaEntry) -> Bool) -> Bool {
        var i = 0
        while i < refs.count {
            if refs[i]._withUnsafeGuaranteedRef({ predicate(i, $0) }) { return true }
            i += 1
        }
        return false
    }

    /// Some of the entries at `indices` satisfies `predicate`.
    @inline(__always)
    func contains(_ indices: [Int], where predicate: (ArenaEntry) -> Bool) -> Bool {
        for j in indices where refs[j]._withUnsafeGuaranteedRef(predicate) { return true }
        return false
    }
}
