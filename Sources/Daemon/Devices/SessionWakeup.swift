import GestureKit

/// The loop's handler for a live session's fd: it lends the session and its registry, neither
/// retained, to `DeviceRegistry.readable` (one call frame a wakeup; an unowned capture and the
/// registry read at each wakeup cost 4 retains and 3 releases).
///
/// Invariant: the registry outlives every session (the service owns it for longer than its
/// loop runs), and it holds the session strongly from `add` until `close`, which removes this
/// handler from the loop before it lets the session go. A session whose device goes away during
/// this call is closed by `DeviceRegistry.closeGone`, which retains it first (`Borrowed.retained`).
struct SessionWakeup {
    private let session: Borrowed<DeviceSession>
    private let registry: Borrowed<DeviceRegistry>

    init(_ session: DeviceSession, registry: DeviceRegistry) {
        self.session = Borrowed(session)
        self.registry = Borrowed(registry)
    }

    /// The device's fd is readable.
    @inline(__always)
    func fire() {
        registry.with { r in session.with { r.readable($0) } }
    }
}
