/// The mode switches asked for during a wakeup, made after it in the order they were asked
/// (ModeControl.afterWakeup). Applying a switch can ask for another (the mode cancels a gesture
/// whose `cancelled` is bound to a switch): that one joins the next round, so no request is lost
/// however it was asked. A chain of more than `limit` rounds is a loop in the config: the rest
/// is handed back, dropped with an error, not applied.
///
/// The requests are taken out a round at a time, never applied in place: a switch asked while
/// a round is applied appends to `pending` while nothing else holds it.
struct ModeRequests {
    struct Request: Equatable {
        let mode: String
        let reason: String
        let seconds: Double?
    }

    enum Round: Equatable {
        /// Apply these, oldest first; then ask for the next round.
        case apply([Request])
        /// Nothing is left.
        case done
        /// `limit` rounds ran and these were still asked: a loop.
        case loop(dropped: [Request])
    }

    private var pending: [Request] = []
    private var rounds = 0

    var isEmpty: Bool { pending.isEmpty }

    /// Where the next request would go (a first touch's wake switch keeps its place: `ask(_:at:)`).
    var count: Int { pending.count }

    mutating func ask(_ r: Request) { pending.append(r) }

    /// `index`: a place `count` gave earlier in this wakeup (before the requests asked since).
    mutating func ask(_ r: Request, at index: Int) { pending.insert(r, at: min(index, pending.count)) }

    mutating func nextRound(limit: Int) -> Round {
        guard !pending.isEmpty else {
            rounds = 0
            return .done
        }
        let batch = pending
        pending.removeAll()
        guard rounds < limit else {
            rounds = 0
            return .loop(dropped: batch)
        }
        rounds += 1
        return .apply(batch)
    }
}
