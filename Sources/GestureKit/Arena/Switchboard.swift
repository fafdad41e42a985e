/// Switching recognizers off and on by name while touches run (a client's `disable` / `enable`).
/// Off, a recognizer sees nothing and blocks nobody; switched off mid-gesture, it is cancelled so
/// that nothing is left dangling (a winner says `cancelled`). Switched on during a sequence, it
/// joins at the next one: it did not see this one's start.
struct Switchboard {
    private let byName: [String: [ArenaEntry]]

    init(_ entries: [ArenaEntry]) {
        var byName: [String: [ArenaEntry]] = [:]
        for e in entries { byName[e.recognizer.name, default: []].append(e) }
        self.byName = byName
    }

    /// False when no recognizer has that name. `cancel` cancels an entry being switched off.
    func set(_ name: String, on: Bool, midSequence: Bool, cancel: (ArenaEntry) -> Void) -> Bool {
        guard let entries = byName[name] else { return false }
        for e in entries {
            if on {
                e.switchOn(midSequence: midSequence)
            } else if e.standing != .off {
                cancel(e)
                e.switchOff()
            }
        }
        return true
    }

    func isOn(_ name: String) -> Bool { byName[name]?.contains { $0.standing != .off } ?? false }
}
