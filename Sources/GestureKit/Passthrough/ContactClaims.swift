/// What the arena knows about who takes a contact: the facts the passthrough relay decides on
/// (TouchRelay). GestureArena provides them; tests give plain values.
public protocol ContactClaims {
    /// Calls `body` with each contact a winning recognizer took since the last call (ids may
    /// repeat), and forgets them.
    func drainClaims(_ body: (Int32) -> Void)
    /// Whether some recognizer that saw contact `id` could still take it. False once every such
    /// recognizer has failed, or when none saw it.
    func isContested(_ id: Int32) -> Bool
}
