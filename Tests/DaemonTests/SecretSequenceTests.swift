import Foundation
import Glibc
import Testing

/// The secret sequence as an intruder at the screen meets it: its back-off outlives a restart
/// and is not started over by completing another sequence, and no event of a gesture that may be
/// a step — in any phase — reaches a listener.
@Suite(.serialized) struct SecretSequenceTests {
    /// `unlock`: a circle, then a swipe (so each circle after a circle breaks it); `easy`: two
    /// circles, which the same circles complete every other time.
    static let config = """
        [socket]
        mode = "0600"
        [[mode]]
        name = "locked"
        passthrough = "none"
        [[mode]]
        name = "open"
        [[sequence]]
        name = "unlock"
        steps = [{ gesture = "circle" }, { gesture = "swipe" }]
        in_mode = "locked"
        switch_mode = "open"
        [[sequence]]
        name = "easy"
        steps = [{ gesture = "circle" }, { gesture = "circle" }]
        in_mode = "locked"
        run = ["/bin/true"]

        """

    static func mode(_ c: Client) throws -> String? {
        (try c.command(#"{"status":true}"#)["status"] as? [String: Any])?["mode"] as? String
    }

    /// Waits (5 s at most) until the daemon's log has `text`.
    static func waitForLog(_ d: DaemonHarness, _ text: String) -> Bool {
        let deadline = Date().addingTimeInterval(5)
        while !d.log.contains(text), Date() < deadline { usleep(50_000) }
        return d.log.contains(text)
    }

    /// `unlock` is circle then circle, for the tests that show a pause holds.
    static let circleTwice = config.replacingOccurrences(of: #"[{ gesture = "circle" }, { gesture = "swipe" }]"#,
                                                         with: #"[{ gesture = "circle" }, { gesture = "circle" }]"#)

    static func stateDirectory() throws -> String {
        let state = NSTemporaryDirectory() + "gestured-state-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        return state
    }

    @Test func anotherSequenceStartsNothingOverAndTheBackOffOutlivesARestart() throws {
        let state = try Self.stateDirectory()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let env = ["STATE_DIRECTORY": state]
        do {
            let d = try DaemonHarness(config: Self.config, replays: [DaemonHarness.circleRecording], environment: env)
            let c = try d.connect()
            // Six circles: five broken attempts at unlock, while easy completes three times.
            for _ in 0..<6 { try d.replayAndWait(c) }
            #expect(Self.waitForLog(d, "sequence unlock paused for 30 s: 5 attempts broken in a row"), "\(d.log)")
            #expect(d.log.components(separatedBy: "sequence easy completed").count - 1 == 3, "\(d.log)")
            let kept = (try? String(contentsOfFile: state + "/sequence-back-off", encoding: .utf8)) ?? ""
            #expect(kept.contains("\nunlock\t0\t1\t"), "\(kept)")
            d.signal(SIGKILL)
            _ = d.waitForExit(timeout: 5)
        }
        // Restarted (kill -9, as a crash or a watchdog would): still paused, said so.
        let again = try DaemonHarness(config: Self.config, replays: [DaemonHarness.circleRecording], environment: env)
        #expect(Self.waitForLog(again, "sequence unlock still paused for"), "\(again.log)")
    }

    /// A pause an earlier run kept holds: the right steps do nothing until it is over.
    @Test func aKeptPauseHoldsAfterARestart() throws {
        let state = try Self.stateDirectory()
        defer { try? FileManager.default.removeItem(atPath: state) }
        // As an earlier run (or boot) left it: its time is cut to the pause's full length from now.
        try "unlock\t2\t1\t1e12\n".write(toFile: state + "/sequence-back-off", atomically: true, encoding: .utf8)
        let d = try Self.circleTwiceStaysLocked(state: state, saying: "sequence unlock still paused for 30 s")
        #expect(d.log.contains("sequence easy completed") && !d.log.contains("sequence unlock completed"), "\(d.log)")
    }

    /// The daemon started on `state`, having logged `line`; the circle replayed twice (the
    /// unlock's steps): the kiosk stays locked. Returns the daemon for more checks of its log.
    static func circleTwiceStaysLocked(state: String, saying line: String) throws -> DaemonHarness {
        let d = try DaemonHarness(config: circleTwice, replays: [DaemonHarness.circleRecording], environment: ["STATE_DIRECTORY": state])
        #expect(waitForLog(d, line), "\(d.log)")
        let c = try d.connect()
        try d.replayAndWait(c)
        try d.replayAndWait(c)
        usleep(300_000)
        #expect(try mode(c) == "locked", "\(d.log)")
        return d
    }

    /// A damaged record is not a fresh start: every sequence begins in a first pause, logged.
    @Test func aBadRecordFailsTowardsAPause() throws {
        let state = try Self.stateDirectory()
        defer { try? FileManager.default.removeItem(atPath: state) }
        try "unlock\tlots\n".write(toFile: state + "/sequence-back-off", atomically: true, encoding: .utf8)
        _ = try Self.circleTwiceStaysLocked(state: state, saying: "cannot read the secret sequences' back-off from \(state)/sequence-back-off: "
            + "line 1 is not name<TAB>broken<TAB>pauses<TAB>until; every sequence starts paused for 30 s")
    }

    /// A pan step: its began and changed events (the circle recording's finger is a pan first,
    /// then cancelled) reach no client while the sequence runs, and do outside its mode.
    @Test func noPhaseOfAStepReachesAListener() throws {
        let config = """
            [socket]
            mode = "0600"
            [[mode]]
            name = "locked"
            [[mode]]
            name = "open"
            [[sequence]]
            name = "unlock"
            steps = [{ gesture = "pan", direction = "up" }, { gesture = "circle" }]
            in_mode = "locked"
            switch_mode = "open"

            """
        let d = try DaemonHarness(config: config, replays: [DaemonHarness.circleRecording])
        let c = try d.connect()
        try d.replayAndWait(c)
        let locked = c.collectEvents(for: 0.5).compactMap { $0["gesture"] as? String }
        #expect(!locked.contains("pan") && !locked.contains("circle"), "\(locked)")
        #expect(try c.command(#"{"mode":"open"}"#)["ok"] as? Bool == true)
        try d.replayAndWait(c)
        let open = c.collectEvents(for: 0.5).compactMap { $0["gesture"] as? String }
        #expect(open.contains("pan") && open.contains("circle"), "\(open)")
    }
}
