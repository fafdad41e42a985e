/// The contacts that have appeared in the arena's current touch sequence, and what the arena
/// needs of each frame before routing it (FrameFacts). Every entry still fed frames has seen every
/// frame of the sequence (hidden contacts stay hidden), so a frame with none new teaches no entry
/// a contact: the entries note contacts only for frames that bring one.
struct SequenceContacts {
    private var ids: [Int32] = []

    init() { ids.reserveCapacity(16) }

    /// Takes in a frame: notes its contacts new to the sequence, and tells what the arena needs of
    /// it. A frame that only moves the sequence's one finger (almost every frame of a one-finger
    /// stroke) is told by one test: its one contact is the sequence's only one, and moved or
    /// stayed; any other takes one pass. (Mutating, as it is: a non-mutating call on the arena's
    /// property copied the struct, a retain and a release of `ids` on every frame.)
    @inline(__always)
    mutating func take(_ frame: TouchFrame) -> FrameFacts {
        if frame.contacts.count == 1 && ids.count == 1 && frame.contacts[0].id == ids[0]
            && (frame.contacts[0].phase == .moved || frame.contacts[0].phase == .stationary) {
            return FrameFacts(down: 1, cancels: false, bringsContact: false, isLoneMove: true, oneContactSoFar: true)
        }
        return takeAny(frame)
    }

    /// `take`, for any frame but a lone move. (Indexed, not in a `withUnsafeBufferPointer`
    /// closure: reading `ids` inside one retained the array.)
    @inline(never)
    private mutating func takeAny(_ frame: TouchFrame) -> FrameFacts {
        var facts = FrameFacts(down: 0, cancels: false, bringsContact: false, isLoneMove: false, oneContactSoFar: false)
        for k in frame.contacts.indices {
            let p = frame.contacts[k].phase
            if p.isDown { facts.down &+= 1 } else if p == .cancelled { facts.cancels = true }
            let id = frame.contacts[k].id
            if !ids.contains(id) {
                ids.append(id)
                facts.bringsContact = true
            }
        }
        facts.oneContactSoFar = ids.count == 1
        return facts
    }

    /// The sequence ended, or everything was cancelled.
    mutating func clear() { ids.removeAllKeepingCapacity() }
}

/// What the arena needs of a frame before routing it (SequenceContacts.take).
struct FrameFacts {
    /// Contacts down in the frame.
    var down: Int
    /// A contact was cancelled.
    var cancels: Bool
    /// A contact new to the sequence appeared.
    var bringsContact: Bool
    /// The frame only moves the sequence's one contact, down in the frame before.
    var isLoneMove: Bool
    /// One contact alone has appeared in the sequence so far (this frame's included).
    var oneContactSoFar: Bool
}
