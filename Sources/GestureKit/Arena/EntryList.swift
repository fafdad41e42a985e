/// The arena's entries, walked without reference counting. Every frame passes over each entry
/// several times (timers, input, settling), and a loop over an array of class references
/// retains and releases each one it visits, with the recognizer it holds (speed:
/// docs/architecture.md). The list owns its entries for the arena's whole life, so a visit
/// borrows each one (`Borrowed`): none can go away while it is visited.
struct EntryList {
    /// Keeps the entries alive; `refs` holds the same objects, unretained.
    private let owned: [ArenaEntry]
    private let refs: [Borrowed<ArenaEntry>]
    /// The entries whose recognizer may set a timer: an UntimedRecognizer never has a deadline,
    /// so the timer checks after every frame pass over these alone.
    private let timedSet: EntrySet

    init(_ entries: [ArenaEntry]) {
        owned = entries
        refs = entries.map(Borrowed.init)
        var t = EntrySet()
        for e in entries where !(e.recognizer is any UntimedRecognizer) { t.set(e.index, true) }
        timedSet = t
    }

    var all: [ArenaEntry] { owned }
    var count: Int { refs.count }

    /// Calls `body` with each entry and its index, in priority order.
    @inline(__always)
    func forEach(_ body: (Int, ArenaEntry) -> Void) {
        var i = 0
        while i < refs.count {
            refs[i].with { body(i, $0) }
            i += 1
        }
    }

    /// Calls `body` with entry `i`.
    @inline(__always)
    func with<R>(_ i: Int, _ body: (ArenaEntry) -> R) -> R {
        refs[i].with(body)
    }

    /// Calls `body` with each entry of `set`, in priority order.
    @inline(__always)
    func forEach(in set: EntrySet, _ body: (ArenaEntry) -> Void) {
        // Through a buffer: a set holds only indices of entries, so no bounds check
        // (speed: docs/architecture.md).
        refs.withUnsafeBufferPointer { refs in
            var bits = set.bits
            while bits != 0 {
                refs[bits.trailingZeroBitCount].with(body)
                bits &= bits &- 1
            }
        }
    }

    /// As `forEach(in:_:)`, over those of `set` whose recognizer may have a deadline.
    @inline(__always)
    func forEachTimed(in set: EntrySet, _ body: (ArenaEntry) -> Void) {
        forEach(in: set.intersection(timedSet), body)
    }

    /// Some entry of `set` satisfies `predicate`.
    @inline(__always)
    func contains(in set: EntrySet, where predicate: (ArenaEntry) -> Bool) -> Bool {
        var bits = set.bits
        while bits != 0 {
            if refs[bits.trailingZeroBitCount].with(predicate) { return true }
            bits &= bits &- 1
        }
        return false
    }
}

/// A set of an arena's entries by index, one bit each: the arena keeps the entries whose
/// standing can still move, so that its passes skip the lost and the off without visiting them.
struct EntrySet {
    static let capacity = UInt64.bitWidth
    private(set) var bits: UInt64 = 0

    init() {}
    /// Entries 0..<count.
    init(all count: Int) { bits = count == Self.capacity ? ~0 : (1 << UInt64(count)) &- 1 }

    @inline(__always)
    mutating func set(_ i: Int, _ member: Bool) {
        if member { bits |= 1 << UInt64(i) } else { bits &= ~(1 << UInt64(i)) }
    }

    @inline(__always)
    func contains(_ i: Int) -> Bool { bits & (1 << UInt64(i)) != 0 }

    @inline(__always)
    func intersects(_ other: EntrySet) -> Bool { bits & other.bits != 0 }

    @inline(__always)
    var isEmpty: Bool { bits == 0 }

    @inline(__always)
    mutating func formUnion(_ other: EntrySet) { bits |= other.bits }

    @inline(__always)
    func subtracting(_ other: EntrySet) -> EntrySet {
        var s = EntrySet()
        s.bits = bits & ~other.bits
        return s
    }

    @inline(__always)
    func intersection(_ other: EntrySet) -> EntrySet {
        var s = EntrySet()
        s.bits = bits & other.bits
        return s
    }
}
