/// Where a recognizer stands in the arena's current touch sequence (libinput's touchpad gesture
/// states, UIKit's failure requirements): one state, changed only by `ArenaStanding.after(_:)`.
public enum ArenaStanding: String, Sendable {
    /// Switched off: sees nothing, blocks nobody.
    case off
    /// Switched on during a sequence whose start it did not see: joins at the next one.
    case joiningNext = "joining_next"
    /// In the sequence, not claimed (possible), or claimed and not yet settled.
    case competing
    /// Claimed while a prerequisite (`requiresFailureOf`) is undecided: its events wait with it.
    case waiting
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
    /// Still fed frames and timers, and settled: the standings that can still move in a sequence.
    var seesInput: Bool {
        switch self {
        case .competing, .waiting, .provisional, .won, .carried: true
        case .off, .joiningNext, .lost: false
        }
    }
    /// Its events go out as they come: cancelled, it must say so.
    var hasSpoken: Bool { self == .won || self == .provisional || self == .carried }
    /// Undecided in this sequence: a winner it cannot run beside cancels it.
    var isRival: Bool { self == .competing || self == .waiting || self == .provisional }

    /// The standing after `event`, or nil when the pair is impossible (the arena ignores it and
    /// reports it: see ArenaArbiter.move). Every move in a sequence is one way — competing →
    /// waiting → provisional → won or lost; carried → competing once — so settling ends.
    public func after(_ event: ArenaStandingEvent) -> ArenaStanding? {
        switch (self, event) {
        case (.competing, .claimWhilePrerequisiteUndecided), (.waiting, .claimWhilePrerequisiteUndecided):
            .waiting
        case (.competing, .beginWhileYieldingUndecided), (.waiting, .beginWhileYieldingUndecided):
            .provisional
        case (.competing, .win), (.waiting, .win), (.provisional, .win):
            .won
        case (.competing, .lose), (.waiting, .lose), (.provisional, .lose), (.won, .lose), (.carried, .lose),
             (.lost, .lose):  // cancelling everything cancels the lost again: nothing to undo
            .lost
        case (.competing, .carryOver), (.carried, .carryOver), (.lost, .carryOver):
            .carried
        case (.carried, .rejoin):
            .competing
        case (.off, .restart):
            .off
        case (_, .restart):
            .competing
        case (.off, .switchOn(let midSequence)):
            midSequence ? .joiningNext : .competing
        case (_, .switchOff) where self != .off:
            .off
        default:
            nil
        }
    }
}

/// What moves an arena entry (see `ArenaStanding.after(_:)`).
public enum ArenaStandingEvent: Sendable, Equatable {
    /// It claimed (recognized or began) while one of its prerequisites is undecided.
    case claimWhilePrerequisiteUndecided
    /// A continuous recognizer began while one it yields to is undecided.
    case beginWhileYieldingUndecided
    case win
    /// It failed, or was cancelled (by a winner, a cancelled contact, cancelAll, switching off).
    case lose
    /// The sequence ended while it waits on a timer.
    case carryOver
    /// A carried recognizer reported its old sequence and is possible again.
    case rejoin
    /// Back to the start of a sequence (one switched off stays off).
    case restart
    case switchOn(midSequence: Bool)
    case switchOff
}

/// One move of one recognizer's standing, for debug logging (GestureArena.transitionObserver).
public struct ArenaTransition: Sendable, Equatable {
    public var recognizer: String
    public var from: ArenaStanding
    public var event: ArenaStandingEvent
    /// The new standing; nil when the pair was impossible and the move was ignored.
    public var to: ArenaStanding?
    public var time: Double
}
