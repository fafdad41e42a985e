/// Follows the one finger a shape gesture is drawn with, frame by frame, and says what happened
/// to it. Circle, checkmark and tickle share these rules: the first finger down starts the
/// stroke; a second finger fails the gesture; a cancelled contact (palm, resync, unplug)
/// cancels it; the finger lifting ends the stroke.
struct SingleFinger {
    enum Step {
        /// Nothing for this recognizer in the frame (no contact yet, or the gesture is over).
        case idle
        /// The finger is down (or just touched down); its sample was appended to the stroke.
        case moved
        /// The finger lifted; its last sample was appended.
        case lifted
        /// More than one finger: not a one-finger shape.
        case secondFinger
        case cancelled
    }

    private(set) var contactID: Int32?
    /// Frame data a recognizer may need at the end (never the frame itself).
    private(set) var lastTime = 0.0
    private(set) var surface = Surface(widthMM: 1, heightMM: 1, isDirect: true)

    mutating func reset() { contactID = nil }

    mutating func step(_ frame: TouchFrame, into stroke: inout Stroke) -> Step {
        lastTime = frame.time
        surface = frame.surface
        if frame.hasCancellation { return .cancelled }
        var tracked: Contact?
        var others = 0
        for c in frame.contacts {
            if c.id == contactID {
                tracked = c
            } else if c.phase.isDown {
                others += 1
            }
        }
        if contactID == nil {
            // Start with a finger that touches down now: a finger already resting when the
            // recognizer was reset (after another gesture) is not the start of a new shape.
            guard others == 1 else { return others == 0 ? .idle : .secondFinger }
            for c in frame.contacts where c.phase == .began {
                contactID = c.id
                tracked = c
            }
            guard let c = tracked else { return .idle }
            stroke.append(mm: c.mm, position: c.position, time: frame.time)
            return .moved
        }
        if others > 0 { return .secondFinger }
        // Vanished without an end: the tracker lost it, which is no deliberate lift.
        guard let c = tracked else { return .cancelled }
        stroke.append(mm: c.mm, position: c.position, time: frame.time)
        switch c.phase {
        case .ended: return .lifted
        case .cancelled: return .cancelled
        case .began, .moved, .stationary: return .moved
        }
    }
}
