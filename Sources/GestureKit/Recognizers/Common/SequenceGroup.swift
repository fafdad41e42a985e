/// A contact group held by reference, so that one can serve several recognizers. The arena keeps
/// one for the touch sequence, takes each frame into it once (after the timers due before the
/// frame have fired, before any recognizer handles it) and lends it to every `GroupReader` that
/// sees whole frames: pan, swipe, edge swipe, tap and long press each kept a group of the same
/// contacts and updated it on every frame, five updates a frame at the start of a one-finger
/// swipe (one now: 4,147 → 3,795 instructions per frame of the pipeline, docs/performance.md).
public final class SequenceGroup {
    /// The group, at a fixed address: its readers borrow it in place (reading a struct stored in
    /// a class through an unowned reference copied the whole group, array included, for every
    /// method called on it).
    let storage: UnsafeMutablePointer<ContactGroup>

    public init() {
        storage = .allocate(capacity: 1)
        storage.initialize(to: ContactGroup())
    }

    deinit {
        storage.deinitialize(count: 1)
        storage.deallocate()
    }

    public var group: ContactGroup { unsafeAddress { UnsafePointer(storage) } }

    /// Takes in one frame. A group whose contacts have all lifted starts afresh: the frame begins
    /// a new sequence.
    public func take(_ frame: TouchFrame) {
        if storage.pointee.downCount == 0 && !storage.pointee.isEmpty { storage.pointee.removeAll() }
        storage.pointee.update(frame)
    }

    /// Takes in a frame that only moves the group's one contact, down in the frame before (the
    /// arena has told so: see GestureArena.handle), as `take` would, without telling it again.
    /// (In line: the call cost the frame 6 instructions.)
    @inline(__always)
    public func takeLoneMove(_ frame: TouchFrame) {
        storage.pointee.moveLone(frame.contacts[0], at: frame.time)
    }

    /// Forgets the sequence (the arena cancelled everything, or a recognizer restarted).
    public func clear() { storage.pointee.removeAll() }
}

/// A recognizer that follows every contact of its frames as one ContactGroup, and can read the
/// arena's group of the sequence instead of keeping its own.
public protocol GroupReader: GestureRecognizer {
    /// From now on read `shared`, which the arena updates with every frame before this
    /// recognizer handles it and clears when it cancels everything. Only for a recognizer that
    /// sees every contact of every frame (no excluded region) from the start of each sequence.
    func share(_ shared: SequenceGroup)
}

/// A GroupReader's group: its own, taking in the frames the recognizer handles, or the arena's,
/// which already has them.
///
/// Invariant: `current` is the storage of `holder`, which this value retains — its own group or
/// the arena's. A recognizer that outlives its arena (GestureArena.recognizers is public) keeps
/// the arena's group alive with it and reads memory it owns, never freed memory
/// (GroupSourceTests). Retained once, when shared: the frame-by-frame reads go through `current`.
struct GroupSource {
    private let own = SequenceGroup()
    /// The group read: `own`, or the arena's once shared.
    private var holder: SequenceGroup
    private var current: UnsafeMutablePointer<ContactGroup>
    private(set) var isShared = false

    init() {
        holder = own
        current = own.storage
    }

    mutating func share(_ shared: SequenceGroup) {
        holder = shared
        current = shared.storage
        isShared = true
    }

    /// Where the group is, for a recognizer's `group` (`unsafeAddress`: read in place), as of
    /// the frame being handled once `take` has run.
    var groupAddress: UnsafePointer<ContactGroup> { UnsafePointer(current) }

    /// Takes in the frame being handled (the arena's group has it already). A recognizer calls
    /// it once per frame it handles; it has handled every frame of the sequence before.
    func take(_ frame: TouchFrame) {
        if !isShared { takeOwn(frame) }
    }

    /// Not inlined: the call to the own group (and its retain) kept out of every reader's
    /// `handle`, where the arena's readers, which share its group, never take it.
    @inline(never)
    private func takeOwn(_ frame: TouchFrame) { own.take(frame) }

    /// The recognizer restarts: its own group forgets the sequence (the arena's is the arena's,
    /// and a recognizer that reads it never fills its own).
    func reset() { if !isShared { own.clear() } }
}
