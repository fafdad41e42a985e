import Evdev
import Glibc

/// The pause after broken attempts at one secret sequence: after `attempts` broken in a row
/// (the sequence begun, then another gesture or too late) its steps do not count for a while —
/// 30 s, doubling with each pause up to 15 min, until it completes. Trying the 256 orders of
/// four corner taps so takes hours; a person who slipped waits half a minute. Each sequence has
/// its own: completing another one (perhaps an easy one, meant for the screen) starts nothing
/// over. Times are CLOCK_MONOTONIC seconds, read when a step is fed.
struct SequenceBackOff: Equatable {
    static let attempts = 5
    private(set) var broken = 0
    private(set) var pauses = 0
    private(set) var pausedUntil: Double? = nil

    static func pause(_ n: Int) -> Double { min(900, 30 * Double(1 << min(n, 5))) }

    init() {}

    init(broken: Int, pauses: Int, pausedUntil: Double?) {
        (self.broken, self.pauses, self.pausedUntil) = (broken, pauses, pausedUntil)
    }

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

    /// A pause that ends no later than its full length after `now`: the state saved by an earlier
    /// boot has a monotonic time of that boot, which counted from its own zero — read as this
    /// boot's, it ends no sooner than it really would (the clock restarted, so "now" is smaller
    /// than the time really passed), and it is cut to the pause's full length.
    func capped(now: Double) -> SequenceBackOff {
        guard let until = pausedUntil, pauses > 0 else { return self }
        var c = self
        c.pausedUntil = min(until, now + Self.pause(pauses - 1))
        return c
    }

    /// What a bad or unreadable record leaves: the stricter side, a first pause from `now`.
    static func unknown(now: Double) -> SequenceBackOff {
        SequenceBackOff(broken: 0, pauses: 1, pausedUntil: now + pause(0))
    }
}

/// The sequences' back-offs, kept where a crash, a `kill -9`, a restart, an upgrade or a reboot
/// leaves them: a file in the service's state directory (`$STATE_DIRECTORY`, the unit's
/// StateDirectory=gestured: /var/lib/gestured, the service's only). Written atomically at every
/// change, read once at start. A record that cannot be read (damaged, not ours) is logged and
/// read as the stricter side: every sequence starts in a first pause.
struct SequenceBackOffRecord {
    let path: String
    static let fileName = "sequence-back-off"
    /// 16 sequences of a few dozen bytes a line: far above, and the file is not ours.
    static let maxBytes = 16 * 1024

    /// `$STATE_DIRECTORY/sequence-back-off` (its first directory when systemd gives several);
    /// nil outside systemd.
    init?(environment: [String: String]) {
        guard let dir = ProcessEnvironment.serviceDirectory("STATE_DIRECTORY", in: environment) else { return nil }
        path = dir + "/" + Self.fileName
    }

    init(path: String) { self.path = path }

    enum Loaded: Equatable {
        /// No record yet (a first start).
        case none
        /// Each sequence's back-off by name.
        case saved([String: SequenceBackOff])
        /// A record that is there but cannot be read: why.
        case bad(String)
    }

    func load() -> Loaded {
        if access(path, F_OK) != 0, errno == ENOENT { return .none }
        let bytes: [UInt8]
        switch FileSystem.regularFile(atPath: path, maxBytes: Self.maxBytes) {
        case .success(let b): bytes = b
        case .failure(let e): return .bad("\(e)")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { return .bad("not UTF-8 text") }
        var saved: [String: SequenceBackOff] = [:]
        for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: true).enumerated() where !line.hasPrefix("#") {
            // name, broken attempts, pauses, the pause's end or "-" (names hold no tab: the config refuses control characters).
            let f = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard f.count == 4, !f[0].isEmpty, let broken = Int(f[1]), let pauses = Int(f[2]), (0...SequenceBackOff.attempts).contains(broken),
                  (0...64).contains(pauses) else { return .bad("line \(n + 1) is not name<TAB>broken<TAB>pauses<TAB>until") }
            var until: Double? = nil
            if f[3] != "-" {
                guard let u = Double(f[3]), u.isFinite else { return .bad("line \(n + 1): \"\(f[3])\" is not a time") }
                until = u
            }
            saved[String(f[0])] = SequenceBackOff(broken: broken, pauses: pauses, pausedUntil: until)
        }
        return .saved(saved)
    }

    /// Writes every sequence's back-off; the error when it cannot.
    func save(_ backOffs: [(name: String, backOff: SequenceBackOff)]) -> Errno? {
        var text = "# gestured's secret sequences: name, broken attempts in a row, pauses so far, end of the pause (CLOCK_MONOTONIC s)\n"
        for (name, b) in backOffs {
            text += "\(name)\t\(b.broken)\t\(b.pauses)\t\(b.pausedUntil.map { "\($0)" } ?? "-")\n"
        }
        do {
            try FileSystem.writeAtomically(Array(text.utf8), toPath: path)
            return nil
        } catch {
            return error
        }
    }
}
