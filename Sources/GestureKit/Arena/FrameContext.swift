/// What a recognizer sees of the touch sequence beyond the frame in hand: the sequence's
/// contacts as one ContactGroup, which has already taken in that frame (and, for a timer or a
/// cancellation, every frame before it). The arena keeps one and takes each frame into it once
/// (after the timers due before the frame have fired, before any recognizer handles it) for all
/// the recognizers that see whole frames: pan, swipe, edge swipe, tap and long press each kept a
/// group of the same contacts and updated it on every frame, five updates a frame at the start
/// of a one-finger swipe (one now; speed: docs/architecture.md).
///
/// Who writes it: its owner alone, through the mutating methods below —
/// - the arena (`ArenaArbiter.context`), for every recognizer that sees whole frames;
/// - a recognizer handed frames itself (on its own, as in the tests, or by an arena through a
///   region filter, where its frames are not the sequence's), which keeps one of its own and
///   takes each frame it handles into it (`GroupReader`).
///
/// Who reads it, and for how long: a recognizer, for the duration of one call (a frame, a timer,
/// a deadline read, a cancellation: the `in context:` requirements of GestureRecognizer), through
/// a `borrowing` parameter. It cannot write it (a borrowed value is immutable) nor keep it past
/// the call without writing `copy` (a borrowed parameter is never copied implicitly, and no
/// pointer is handed out); it may copy a value out of the group. So a recognizer kept after its arena (`GestureArena.recognizers` is
/// public) holds nothing of the arena's: it reads its own context.
///
/// The group lives at a fixed address, `Storage`, which the context's holder keeps beside it (the
/// arena's arbiter, a reader's own `ReaderContext`): the context is one pointer, read in place
/// (`unsafeAddress`), noncopyable so that there is one context per group and nothing to destroy.
/// The storage is not the context's to free: a noncopyable value freeing it in its own deinit had
/// it freed mid-frame under Swift 6.0.3 -O; a class reference in the context instead cost a
/// retain and release per lend. Held as a struct inside the arena and passed by borrow, the
/// group (a large struct) was copied for every call that lent it (speed: docs/architecture.md).
public struct FrameContext: ~Copyable {
    /// Where a context's group lives: its holder keeps it for as long as the context.
    public typealias Storage = OwnedBuffer<ContactGroup>

    private let storage: UnsafeMutablePointer<ContactGroup>

    public static func makeStorage() -> Storage { OwnedBuffer(repeating: ContactGroup(), count: 1) }

    /// A context over `storage`'s group, which the caller keeps while it uses the context.
    public init(in storage: Storage) { self.storage = storage.base }

    /// The contacts of the sequence so far, as of the frame being handled.
    public var group: ContactGroup { unsafeAddress { UnsafePointer(storage) } }

    /// Takes in one frame. A group whose contacts have all lifted starts afresh: the frame begins
    /// a new sequence.
    public mutating func take(_ frame: TouchFrame) {
        if storage.pointee.downCount == 0 && !storage.pointee.isEmpty { storage.pointee.removeAll() }
        storage.pointee.update(frame)
    }

    /// Takes in a frame that only moves the group's one contact, down in the frame before (the
    /// arena has told so: see SequenceContacts.take), as `take` would, without telling it again.
    /// (In line: every one-finger frame comes this way; speed: docs/architecture.md.)
    @inline(__always)
    mutating func takeLoneMove(_ frame: TouchFrame) {
        storage.pointee.moveLone(frame.contacts[0], at: frame.time)
    }

    /// Forgets the sequence (it ended, the arena cancelled everything, or a recognizer restarted).
    public mutating func clear() { storage.pointee.removeAll() }
}
