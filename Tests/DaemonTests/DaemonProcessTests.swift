import Foundation
import Glibc
import Testing

/// The real daemon, a real circle recording as its device, real socket clients and commands.
/// Circle events come from the circle recognizer (shapes branch); the tests that need no
/// gesture at all (limits, bad commands, signals) stand on their own.
@Suite(.serialized) struct DaemonProcessTests {
    static let baseConfig = """
        [socket]
        mode = "0600"
        max_clients = 4
        """

    /// The daemon holding the circle recording, the circle bound to a shell line (`$DIR` is the
    /// test's directory).
    func circleBound(to shell: String, timeout: Double? = nil) throws -> DaemonHarness {
        let config = Self.baseConfig + """

            [[bind]]
            gesture = "circle"
            run = ["/bin/sh", "-c", "\(shell)"]
            \(timeout.map { "timeout = \($0)" } ?? "")
            """
        return try DaemonHarness(config: config, replays: [DaemonHarness.circleRecording])
    }

    @Test func circleEventArrivesWithItsFields() throws {
        let d = try DaemonHarness(config: Self.baseConfig, replays: [DaemonHarness.circleRecording])
        let c = try d.connect()
        try d.replayAndWait(c)
        let events = c.collectEvents(for: 0.5)
        let circle = try #require(events.first { $0["gesture"] as? String == "circle" }, "events: \(events)\nlog:\n\(d.log)")
        #expect(circle["phase"] as? String == "recognized")
        #expect(circle["device"] as? String == "Wacom ISDv4 E6 Finger")
        #expect(circle["device_id"] as? String == "Wacom_ISDv4_E6_Finger.single-center-circle")
        #expect(circle["fingers"] as? Int == 1)
        let center = try #require(circle["center"] as? [String: Double])
        // The recording's circle is drawn around the middle of the panel.
        #expect(abs((center["x"] ?? 0) - 0.5) < 0.25 && abs((center["y"] ?? 0) - 0.5) < 0.25, "\(circle)")
        #expect((circle["radius_mm"] as? Double ?? 0) > 5)
        #expect(["clockwise", "counterclockwise"].contains(circle["direction"] as? String ?? ""))
        #expect(circle["time"] as? Double != nil)
    }

    @Test func subscribedClientGetsOnlyWhatItAskedFor() throws {
        let d = try DaemonHarness(config: Self.baseConfig, replays: [DaemonHarness.circleRecording])
        let all = try d.connect()
        let onlyTaps = try d.connect()
        let onlyCircles = try d.connect()
        #expect(try onlyTaps.command(#"{"subscribe":["tap"]}"#)["ok"] as? Bool == true)
        #expect(try onlyCircles.command(#"{"subscribe":["circle"]}"#)["ok"] as? Bool == true)
        try d.replayAndWait(all)
        let allEvents = all.collectEvents(for: 0.5)
        #expect(allEvents.contains { $0["gesture"] as? String == "circle" }, "\(allEvents)")
        let circles = onlyCircles.collectEvents(for: 0.3)
        #expect(!circles.isEmpty && circles.allSatisfy { $0["gesture"] as? String == "circle" }, "\(circles)")
        let taps = onlyTaps.collectEvents(for: 0.3)
        #expect(taps.allSatisfy { $0["gesture"] as? String == "tap" }, "\(taps)")
        // An unknown gesture name is an error line, not a disconnect.
        let bad = try onlyTaps.command(#"{"subscribe":["lasso"]}"#)
        #expect((bad["error"] as? String)?.contains("lasso") == true)
    }

    @Test func disablingTheCircleRecognizerStopsCircleEvents() throws {
        let d = try DaemonHarness(config: Self.baseConfig, replays: [DaemonHarness.circleRecording])
        let c = try d.connect()
        try d.replayAndWait(c)
        #expect(c.collectEvents(for: 0.3).contains { $0["gesture"] as? String == "circle" })
        let reply = try c.command(#"{"disable":"circle","device":"Wacom*"}"#)
        #expect(reply["ok"] as? Bool == true, "\(reply)")
        #expect(reply["devices"] as? [String] == ["Wacom ISDv4 E6 Finger"])
        let status = try c.command(#"{"status":true}"#)
        let devices = (status["status"] as? [String: Any])?["devices"] as? [[String: Any]] ?? []
        let recognizers = devices.first?["recognizers"] as? [[String: Any]] ?? []
        #expect(recognizers.contains { $0["name"] as? String == "circle" && $0["enabled"] as? Bool == false }, "\(status)")
        try d.replayAndWait(c)
        let after = c.collectEvents(for: 0.5)
        #expect(!after.contains { $0["gesture"] as? String == "circle" }, "\(after)")
        // And back on.
        #expect(try c.command(#"{"enable":"circle"}"#)["ok"] as? Bool == true)
        try d.replayAndWait(c)
        #expect(c.collectEvents(for: 0.5).contains { $0["gesture"] as? String == "circle" })
    }

    @Test func boundCommandRunsWithTheGestureEnvironment() throws {
        let d = try circleBound(to: "env | grep -e '^GESTURE_' -e '^PATH=' | sort > $DIR/env.txt.tmp && mv $DIR/env.txt.tmp $DIR/env.txt", timeout: 5)
        let c = try d.connect()
        try d.replayAndWait(c)
        let text = try #require(d.written("env.txt"), "log:\n\(d.log)")
        var env: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if parts.count == 2 { env[String(parts[0])] = String(parts[1]) }
        }
        #expect(env["GESTURE_NAME"] == "circle")
        // The daemon's own environment comes first (the harness runs it with the tests').
        #expect(env["PATH"] != nil && env["PATH"] == ProcessInfo.processInfo.environment["PATH"])
        #expect(env["GESTURE_PHASE"] == "recognized")
        #expect(env["GESTURE_DEVICE"] == "Wacom ISDv4 E6 Finger")
        #expect(env["GESTURE_DEVICE_ID"] == "Wacom_ISDv4_E6_Finger.single-center-circle")
        #expect(env["GESTURE_FINGERS"] == "1")
        #expect(env["GESTURE_REGION"] == "")
        #expect(Double(env["GESTURE_X"] ?? "") != nil && Double(env["GESTURE_Y_MM"] ?? "") != nil, "\(env)")
        #expect(Double(env["GESTURE_RADIUS_MM"] ?? "") ?? 0 > 5, "\(env)")
        #expect(["clockwise", "counterclockwise"].contains(env["GESTURE_DIRECTION"] ?? ""))
        // The file appears just before the shell exits and is reaped: wait for the log line.
        let reaped = Date().addingTimeInterval(5)
        while !d.log.contains("exited with status 0") && Date() < reaped { usleep(20_000) }
        #expect(d.log.contains("exited with status 0"))
    }

    @Test func hangingCommandIsKilledAtItsTimeout() throws {
        let d = try circleBound(to: "echo $$ > $DIR/pid; exec sleep 60", timeout: 0.5)
        let c = try d.connect()
        try d.replayAndWait(c)
        let pidText = try #require(d.written("pid"), "log:\n\(d.log)")
        let started = Date()
        let pid = try #require(Int32(pidText.trimmingCharacters(in: .whitespacesAndNewlines)))
        // Killed (SIGTERM) after 0.5 s and reaped: the pid disappears, well before sleep's 60 s.
        let deadline = Date().addingTimeInterval(5)
        while kill(pid, 0) == 0 && Date() < deadline { usleep(20_000) }
        #expect(kill(pid, 0) != 0, "the hanging command is still running")
        #expect(Date().timeIntervalSince(started) < 4)
        #expect(d.log.contains("ran past its timeout"), "\(d.log)")
        #expect(d.log.contains("killed by signal 15 (timed out)"), "\(d.log)")
    }

    @Test func clientThatNeverReadsIsDroppedWhileAnotherKeepsReceiving() throws {
        let config = """
            [socket]
            client_buffer_bytes = 4096
            """
        let d = try DaemonHarness(config: config, replays: [DaemonHarness.circleRecording])
        let stuck = try d.connect()
        var small: Int32 = 4096
        setsockopt(stuck.fd, SOL_SOCKET, SO_RCVBUF, &small, 4)
        let reader = try d.connect()
        // The stuck client asks for far more than it will ever read.
        let flood = String(repeating: "{\"status\":true}\n", count: 4000)
        stuck.send(String(flood.dropLast()))
        let deadline = Date().addingTimeInterval(10)
        var clients = 2
        while Date() < deadline {
            let s = try reader.command(#"{"status":true}"#)
            clients = (s["status"] as? [String: Any])?["clients"] as? Int ?? -1
            if clients == 1 { break }
            usleep(50_000)
        }
        #expect(clients == 1, "log:\n\(d.log)")
        #expect(d.log.contains("too slow"), "\(d.log)")
        // The other client still gets gestures.
        try d.replayAndWait(reader)
        #expect(reader.collectEvents(for: 0.5).contains { $0["gesture"] as? String == "circle" })
    }

    @Test func badCommandsGetAnErrorLineAndTheConnectionStays() throws {
        let d = try DaemonHarness(config: Self.baseConfig, replays: [DaemonHarness.circleRecording])
        let c = try d.connect()
        for bad in ["not json", "[1,2]", #"{"frobnicate":1}"#, #"{"enable":7}"#, #"{"disable":"lasso"}"#, #"{"enable":"pan","device":"NoSuchDevice"}"#] {
            let reply = try c.command(bad)
            #expect(reply["error"] is String, "\(bad) → \(reply)")
        }
        let status = try c.command(#"{"status":true}"#)
        let st = try #require(status["status"] as? [String: Any])
        #expect(st["clients"] as? Int == 1)
        #expect((st["devices"] as? [[String: Any]])?.first?["name"] as? String == "Wacom ISDv4 E6 Finger")
    }

    @Test func clientsBeyondTheLimitAreRefusedWithAMessage() throws {
        let d = try DaemonHarness(config: Self.baseConfig, replays: [DaemonHarness.circleRecording])
        let kept = try (0..<4).map { _ in try d.connect() }
        for c in kept { _ = try c.command(#"{"status":true}"#) }
        let extra = try d.connect()
        let line = try #require(extra.readLine(timeout: 3))
        #expect(line.contains("too many clients"), "\(line)")
        #expect(extra.readLine(timeout: 1) == nil)  // and then closed
        #expect(try kept[0].command(#"{"status":true}"#)["status"] != nil)
    }

    @Test func sighupWithABrokenConfigKeepsTheRunningOne() throws {
        let d = try circleBound(to: "echo ran >> $DIR/runs")
        try "[socket]\nmax_clients = \"many\"\n".write(toFile: d.configPath, atomically: true, encoding: .utf8)
        d.signal(SIGHUP)
        let c = try d.connect()
        let deadline = Date().addingTimeInterval(5)
        while !d.log.contains("reload failed") && Date() < deadline { usleep(20_000) }
        #expect(d.log.contains("reload failed"), "\(d.log)")
        #expect(d.log.contains("gestures.toml:2: socket.max_clients: expected an integer"), "\(d.log)")
        #expect(d.process.isRunning)
        // The old config still works: its socket, and its binding.
        try d.replayAndWait(c)
        #expect(c.collectEvents(for: 0.5).contains { $0["gesture"] as? String == "circle" })
        #expect(DaemonHarness.waitForFile(d.dir + "/runs"), "\(d.log)")
    }

    @Test func sighupWithAGoodConfigAppliesIt() throws {
        let d = try DaemonHarness(config: Self.baseConfig, replays: [DaemonHarness.circleRecording])
        let c = try d.connect()
        #expect((try c.command(#"{"status":true}"#)["status"] as? [String: Any])?["bindings"] as? Int == 0)
        try (Self.baseConfig + "\n[[bind]]\ngesture = \"tap\"\nrun = [\"true\"]\n").write(toFile: d.configPath, atomically: true, encoding: .utf8)
        d.signal(SIGHUP)
        let deadline = Date().addingTimeInterval(5)
        var bindings = 0
        while Date() < deadline {
            bindings = (try c.command(#"{"status":true}"#)["status"] as? [String: Any])?["bindings"] as? Int ?? -1
            if bindings == 1 { break }
            usleep(20_000)
        }
        #expect(bindings == 1, "\(d.log)")
    }

    @Test func sigtermClosesClientsRemovesTheSocketAndExitsZero() throws {
        let d = try DaemonHarness(config: Self.baseConfig, replays: [DaemonHarness.circleRecording])
        let c = try d.connect()
        _ = try c.command(#"{"status":true}"#)
        d.signal(SIGTERM)
        let status = d.waitForExit(timeout: 5)
        #expect(status == 0, "\(d.log)")
        #expect(!FileManager.default.fileExists(atPath: d.socketPath))
        #expect(c.readLine(timeout: 1) == nil)  // the client was closed
    }

    @Test func exitAfterReplayEndsTheDaemon() throws {
        let d = try DaemonHarness(config: Self.baseConfig, replays: [DaemonHarness.circleRecording], extraArgs: ["--fast", "--exit-after-replay"], waitForSocket: false)
        #expect(d.waitForExit(timeout: 10) == 0, "\(d.log)")
        #expect(d.log.contains("replay of"))
    }
}
