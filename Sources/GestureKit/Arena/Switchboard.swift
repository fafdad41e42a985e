/// Switching recognizers off and on by name while touches run (a client's `disable` / `enable`).
/// Off, a recognizer sees nothing and blocks nobody; switched off mid-gesture, it is cancelled so
/// that nothing is left dangling (a winner says `cancelled`). Switched on during a sequence, it
/// joins at the next one: it did not see this one's start. The arena makes the moves
/// (GestureArena.setEnabled); this finds the entries.
struct Switchboard {
    private let byName: [String: [ArenaEntry]]

    init(_ entries: [ArenaEntry]) {
        var byName: [String: [ArenaEntry]] = [:]
        for e in entries { byName[e.recognizer.name, default: []].append(e) }
        self.byName = byName
    }

    /// The entries of the recognizers named `name`; nil when there is none.
    func entries(named name: String) -> [ArenaEntry]? { byName[name] }

    func isOn(_ name: String) -> Bool { byName[name]?.contains { $0.standing != .off } ?? false }
}
