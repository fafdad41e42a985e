/// Fires timers the way the daemon's timer does, for code that plays time itself — replay, the
/// daemon's recording source, the trace, the tests: every deadline at or before a time fires
/// at its own time, earliest first, before the input at that time. A timer that never moves
/// its deadline on would fire forever: one call fires at most `limit` of them.
public enum DeadlineDriver {
    public static let limit = 10_000

    /// Calls `tick` at each deadline `next` reports at or before `time` (`.infinity`: until
    /// nothing is pending); returns how many fired.
    @discardableResult
    public static func fire(until time: Double, next: () -> Double?, tick: (Double) -> Void) -> Int {
        var fired = 0
        while fired < limit, let d = next(), d <= time {
            tick(d)
            fired += 1
        }
        return fired
    }
}

extension GestureArena {
    /// Fires the arena's timeouts up to `time` (DeadlineDriver).
    @discardableResult
    public func fireDeadlines(until time: Double, emit: (GestureEvent) -> Void) -> Int {
        DeadlineDriver.fire(until: time, next: { deadline }, tick: { tick(now: $0, emit: emit) })
    }
}

extension GestureRecognizer {
    /// Fires one recognizer's timeouts up to `time`, outside any arena (DeadlineDriver).
    @discardableResult
    public func fireDeadlines(until time: Double, events: inout [GestureEvent]) -> Int {
        var fired: [GestureEvent] = []
        defer { events += fired }
        return DeadlineDriver.fire(until: time, next: { deadline }, tick: { tick(now: $0, events: &fired) })
    }
}
