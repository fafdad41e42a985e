import Foundation
import Glibc
import Testing

/// Modes through the real daemon: the socket's `mode` command and `status`, the change
/// broadcast to every client, `in_mode` bindings, and a replayed touch waking a dark screen
/// (the sysfs file is a file of the test's).
@Suite(.serialized) struct ModeDaemonTests {
    static let config = """
        [[mode]]
        name = "normal"
        [[mode]]
        name = "locked"
        recognizers = ["circle"]
        passthrough = "none"
        \(ModeConfigTests.asleep)

        [screen]
        state = "$DIR/dpms"
        wake = ["/usr/bin/touch", "$DIR/woke"]

        [[bind]]
        gesture = "circle"
        in_mode = "locked"
        run = ["/usr/bin/touch", "$DIR/circle-locked"]
        """

    @Test func theModeCommandSwitchesRepliesAndIsBroadcastToEveryClient() throws {
        let d = try DaemonHarness(config: Self.config, replays: [DaemonHarness.circleRecording])
        let a = try d.connect(), b = try d.connect()
        _ = try b.command(#"{"subscribe":["swipe"]}"#)  // a mode change reaches clients whatever they subscribed to
        let status = try a.command(#"{"status":true}"#)["status"] as? [String: Any]
        #expect(status?["mode"] as? String == "normal")
        let reply = try a.command(#"{"mode":"locked"}"#)
        #expect(reply["ok"] as? Bool == true && reply["mode"] as? String == "locked", "\(reply)")
        // The client that asked reads its reply first, then the event, as every client does.
        #expect(a.readJSON(timeout: 3)?["event"] as? String == "mode")
        let event = try #require(b.readJSON(timeout: 3), "no mode event; log:\n\(d.log)")
        #expect(event["event"] as? String == "mode" && event["mode"] as? String == "locked", "\(event)")
        #expect(event["previous"] as? String == "normal" && event["reason"] as? String == "socket", "\(event)")
        let bad = try a.command(#"{"mode":"lockd"}"#)
        #expect((bad["error"] as? String)?.contains("unknown mode \"lockd\" (defined: normal, locked, asleep)") == true, "\(bad)")
        #expect((try a.command(#"{"status":true}"#)["status"] as? [String: Any])?["mode"] as? String == "locked")
    }

    @Test func aBindingRunsOnlyInItsModes() throws {
        let d = try DaemonHarness(config: Self.config, replays: [DaemonHarness.circleRecording])
        let c = try d.connect()
        try d.replayAndWait(c)
        usleep(300_000)
        #expect(!FileManager.default.fileExists(atPath: d.dir + "/circle-locked"), "ran in mode normal")
        _ = try c.command(#"{"mode":"locked"}"#)
        try d.replayAndWait(c)
        #expect(DaemonHarness.waitForFile(d.dir + "/circle-locked"), "log:\n\(d.log)")
    }

    @Test func aTouchOnADarkScreenRunsTheWakeCommand() throws {
        let d = try DaemonHarness(config: Self.config, replays: [DaemonHarness.circleRecording])
        try "On\n".write(toFile: d.dir + "/dpms", atomically: true, encoding: .utf8)
        let c = try d.connect()
        try d.replayAndWait(c)
        usleep(300_000)
        #expect(!FileManager.default.fileExists(atPath: d.dir + "/woke"), "woke a lit screen")
        try "Off\n".write(toFile: d.dir + "/dpms", atomically: true, encoding: .utf8)
        try d.replayAndWait(c)
        #expect(DaemonHarness.waitForFile(d.dir + "/woke"), "log:\n\(d.log)")
    }

    @Test func aTouchInADarkModeWakesIntoItsWakeMode() throws {
        let d = try DaemonHarness(config: Self.config, replays: [DaemonHarness.circleRecording])
        let c = try d.connect()
        _ = try c.command(#"{"mode":"asleep"}"#)
        try d.replayAndWait(c)
        #expect(DaemonHarness.waitForFile(d.dir + "/woke"), "log:\n\(d.log)")
        let events = c.events.filter { $0["event"] as? String == "mode" }
        #expect(events.contains { $0["mode"] as? String == "locked" && $0["previous"] as? String == "asleep" && $0["reason"] as? String == "wake" },
                "\(events)")
    }

    @Test func aBindingSwitchesForAWhileThenTheModeComesBack() throws {
        let config = """
            [[mode]]
            name = "normal"
            [[mode]]
            name = "locked"
            [[bind]]
            gesture = "circle"
            in_mode = "normal"
            switch_mode = "locked"
            for = 1
            """
        let d = try DaemonHarness(config: config, replays: [DaemonHarness.circleRecording])
        let c = try d.connect()
        try d.replayAndWait(c)
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline, !c.events.contains(where: { $0["reason"] as? String == "timer" }) {
            if let e = c.readJSON(timeout: 0.5), e["event"] != nil { c.keep(e) }
        }
        let modes = c.events.filter { $0["event"] as? String == "mode" }.map { "\($0["mode"]!) \($0["reason"]!)" }
        #expect(modes == ["locked binding 1", "normal timer"], "log:\n\(d.log)")
    }
}

/// A switch asked while another is being applied is made, not dropped: the mode `locked` turns
/// pan off, which cancels the pan in progress, and a binding on pan's `cancelled` asks for
/// `third` while `locked` is applied.
@Suite(.serialized) struct ChainedModeSwitchTests {
    @Test func aSwitchAskedWhileAModeIsAppliedIsMade() throws {
        let config = """
            [[mode]]
            name = "normal"
            [[mode]]
            name = "locked"
            recognizers = ["circle"]
            [[mode]]
            name = "third"
            [[bind]]
            gesture = "pan"
            phase = "began"
            in_mode = "normal"
            switch_mode = "locked"
            [[bind]]
            gesture = "pan"
            phase = "cancelled"
            in_mode = "locked"
            switch_mode = "third"
            """
        // At the recording's own pace (not --fast): the pan begins in one wakeup, and the switch
        // its binding asks for is applied after that wakeup, with the pan still in progress.
        let d = try DaemonHarness(config: config, replays: [DaemonHarness.circleRecording], extraArgs: ["--hold-replay"])
        let c = try d.connect()
        try d.replayAndWait(c)
        let deadline = Date().addingTimeInterval(3)
        while Date() < deadline, !c.events.contains(where: { $0["mode"] as? String == "third" }) {
            if let e = c.readJSON(timeout: 0.5), e["event"] != nil { c.keep(e) }
        }
        let modes = c.events.filter { $0["event"] as? String == "mode" }.map { "\($0["mode"]!) \($0["reason"]!)" }
        #expect(modes == ["locked binding 1", "third binding 2"], "events: \(c.events.map { "\($0["gesture"] ?? $0["event"] ?? "") \($0["phase"] ?? "")" })\nlog:\n\(d.log)")
    }
}
