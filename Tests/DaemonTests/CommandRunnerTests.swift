import Foundation
import Glibc
import Testing

/// Bound commands handed to the command runner (`gestured run-command`, socket-activated by
/// `systemd-socket-activate --accept --inetd` as gestured-commands.socket activates it) through
/// the daemon's relay: the command runs in the runner's environment with only the gesture's
/// variables from the daemon, and the daemon's timeout and exit still end it.
@Suite(.serialized) struct CommandRunnerTests {
    /// A runner listening on a socket of its own, one `gestured run-command` per connection.
    /// Started with posix_spawn, not Foundation's Process: with it running, the harness's
    /// `waitUntilExit` on the daemon never returned (Foundation 6.3 on Linux).
    final class Runner {
        let socket: String
        let logPath: String
        private var pid: pid_t = 0

        init() throws {
            let dir = NSTemporaryDirectory() + "gestured-runner-" + UUID().uuidString.prefix(8)
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            socket = dir + "/commands.sock"
            logPath = dir + "/runner.log"
            let argv = ["/usr/bin/systemd-socket-activate", "--listen", socket, "--accept", "--inetd", "--setenv=RUNNER_MARK=runner",
                        try DaemonHarness.binary(), "run-command"]
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, logPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            // Signals unblocked: the test's threads block some, and the runner would inherit that.
            var attr = posix_spawnattr_t()
            posix_spawnattr_init(&attr)
            defer { posix_spawnattr_destroy(&attr) }
            var none = sigset_t()
            sigemptyset(&none)
            posix_spawnattr_setsigmask(&attr, &none)
            posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETSIGMASK))
            let cArgs = argv.map { strdup($0) } + [nil]
            defer { for a in cArgs { free(a) } }
            let rc = posix_spawn(&pid, argv[0], &actions, &attr, cArgs, environ)
            guard rc == 0 else { throw HarnessError("cannot start systemd-socket-activate: \(rc)") }
            guard DaemonHarness.waitForFile(socket) else { throw HarnessError("the runner did not listen:\n\(log)") }
        }

        var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

        deinit {
            kill(pid, SIGTERM)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            try? FileManager.default.removeItem(atPath: (socket as NSString).deletingLastPathComponent)
        }
    }

    func daemon(_ runner: Runner?, shell: String, timeout: Double = 5, environment: [String: String] = [:]) throws -> DaemonHarness {
        let config = """
            [[bind]]
            gesture = "circle"
            run = ["/bin/sh", "-c", "\(shell)"]
            timeout = \(timeout)
            """
        var env = environment
        if let runner { env["GESTURED_COMMAND_RUNNER"] = runner.socket }
        env["DAEMON_SECRET"] = "kept-in-the-daemon"
        return try DaemonHarness(config: config, replays: [DaemonHarness.circleRecording], environment: env)
    }

    static func pid(_ d: DaemonHarness, _ name: String) throws -> pid_t {
        let text = try #require(d.written(name), "log:\n\(d.log)")
        return try #require(Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    static func waitGone(_ pid: pid_t, within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while kill(pid, 0) == 0 && Date() < deadline { usleep(20_000) }
        return kill(pid, 0) != 0
    }

    @Test func theCommandRunsInTheRunnerWithOnlyTheGesturesVariables() throws {
        let runner = try Runner()
        let d = try daemon(runner, shell: "env | sort > $DIR/env.tmp; cat /proc/$PPID/cmdline | tr '\\\\0' ' ' > $DIR/parent.tmp; mv $DIR/parent.tmp $DIR/parent; mv $DIR/env.tmp $DIR/env")
        let c = try d.connect()
        try d.replayAndWait(c)
        let env = try #require(d.written("env"), "daemon:\n\(d.log)\nrunner:\n\(runner.log)")
        #expect(env.contains("GESTURE_NAME=circle\n") && env.contains("GESTURE_DEVICE=Wacom ISDv4 E6 Finger\n"), "\(env)")
        #expect(env.contains("RUNNER_MARK=runner\n"), "not the runner's environment: \(env)")
        #expect(!env.contains("DAEMON_SECRET"), "the daemon's environment crossed: \(env)")
        #expect(try #require(d.written("parent")).contains("run-command"), "the command's parent is not the runner")
        let ended = Date().addingTimeInterval(5)
        while !d.log.contains("exited with status 0") && Date() < ended { usleep(20_000) }
        #expect(d.log.contains("the relay to the command runner") && d.log.contains("exited with status 0"), "\(d.log)")
    }

    @Test func aCommandPastItsTimeoutIsKilledInTheRunner() throws {
        let runner = try Runner()
        let d = try daemon(runner, shell: "echo $$ > $DIR/pid; exec sleep 60", timeout: 0.5)
        let c = try d.connect()
        try d.replayAndWait(c)
        let pid = try Self.pid(d, "pid")
        #expect(Self.waitGone(pid, within: 4), "the runner's command outlived its timeout:\n\(d.log)\n\(runner.log)")
        let logged = Date().addingTimeInterval(3)
        while !d.log.contains("killed by signal 15 (timed out)") && Date() < logged { usleep(20_000) }
        #expect(d.log.contains("killed by signal 15 (timed out)"), "\(d.log)")
    }

    @Test func stoppingTheDaemonStopsTheRunnersCommandEvenOneThatIgnoresSIGTERM() throws {
        let runner = try Runner()
        let d = try daemon(runner, shell: "trap '' TERM; echo $$ > $DIR/pid; while :; do sleep 0.1; done", timeout: 60)
        let c = try d.connect()
        try d.replayAndWait(c)
        let pid = try Self.pid(d, "pid")
        d.signal(SIGTERM)
        #expect(d.waitForExit(timeout: 5) == 0, "\(d.log)")
        #expect(Self.waitGone(pid, within: 3), "the command outlived the daemon:\n\(d.log)\n\(runner.log)")
    }

    @Test func noRunnerMeansACommandThatSaysSoAndADaemonThatCarriesOn() throws {
        let d = try daemon(nil, shell: "touch $DIR/ran", environment: ["GESTURED_COMMAND_RUNNER": "/nonexistent/commands.sock"])
        let c = try d.connect()
        try d.replayAndWait(c)
        let logged = Date().addingTimeInterval(5)
        while !d.log.contains("exited with status 126") && Date() < logged { usleep(20_000) }
        #expect(d.log.contains("cannot reach the command runner at /nonexistent/commands.sock"), "\(d.log)")
        #expect(d.log.contains("exited with status 126"), "\(d.log)")
        #expect(!FileManager.default.fileExists(atPath: d.dir + "/ran"))
        #expect(try c.command(#"{"status":true}"#)["ok"] as? Bool != false)
    }

    @Test func insideTheServiceWithoutTheGrantNoCommandRuns() throws {
        let d = try daemon(nil, shell: "touch $DIR/ran", environment: ["GESTURED_GRANTS": ""])
        let c = try d.connect()
        try d.replayAndWait(c)
        let logged = Date().addingTimeInterval(5)
        while !d.log.contains("is not granted") && Date() < logged { usleep(20_000) }
        #expect(d.log.contains("commands run as gestured-commands.socket's user, which gestured.service is not granted"), "\(d.log)")
        usleep(300_000)
        #expect(!FileManager.default.fileExists(atPath: d.dir + "/ran"), "the daemon ran the command itself")
    }
}
