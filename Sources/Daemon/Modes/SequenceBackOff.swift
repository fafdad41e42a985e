/// The pause after broken attempts at the secret sequences: after `attempts` broken in a row
/// (a sequence begun, then another gesture or too late) no step counts for a while — 30 s,
/// doubling with each pause up to 15 min, until a sequence completes. Trying the 256 orders of
/// four corner taps so takes hours; a person who slipped waits half a minute. Times are the
/// events' (monotonic seconds).
struct SequenceBackOff {
    static let attempts = 5
    private var broken = 0
    private var pauses = 0
    private(set) var pausedUntil: Double? = nil

    static func pause(_ n: Int) -> Double { min(900, 30 * Double(1 << min(n, 5))) }

    /// Whether steps count at `time` (no pause, or the pause is over).
    mutating func allows(at time: Double) -> Bool {
        guard let until = pausedUntil else { return true }
        if time < until { return false }
        pausedUntil = nil
        return true
    }

    /// After a step was fed: the pause (seconds) this result starts, if any.
    mutating func record(completed: Bool, broke: Bool, at time: Double) -> Double? {
        if completed { (broken, pauses) = (0, 0); return nil }
        guard broke else { return nil }
        broken += 1
        guard broken >= Self.attempts else { return nil }
        let seconds = Self.pause(pauses)
        pausedUntil = time + seconds
        (broken, pauses) = (0, pauses + 1)
        return seconds
    }
}
