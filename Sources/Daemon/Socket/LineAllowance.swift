/// How many lines a client may send: a token bucket of `perSecond` lines, refilled continuously,
/// holding at most one second's worth. Every line counts, blank or not, answered or not — a line
/// that costs the daemon nothing to refuse still costs it a wakeup — so no client can keep the
/// loop busy: one that outruns its allowance loses its connection (SocketHub), and nothing else.
struct LineAllowance {
    let perSecond: Double
    private var tokens: Double
    private var updatedAt: Double

    init(perSecond: Int, now: Double) {
        self.perSecond = Double(perSecond)
        tokens = self.perSecond
        updatedAt = now
    }

    /// Takes one line at `now`; false when the allowance is spent.
    mutating func take(now: Double) -> Bool {
        tokens = min(perSecond, tokens + max(0, now - updatedAt) * perSecond)
        updatedAt = now
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }
}
