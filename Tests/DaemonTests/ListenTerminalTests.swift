import Foundation
import Glibc
import Testing

/// `gestured listen` as a person sees it: in a real terminal (a tmux pane, read back with
/// capture-pane), the replayed circle — 79 `pan changed` lines, `pan cancelled` and the circle
/// on the socket — is one line, the circle with its figures. Through a pipe it stays one line
/// per event.
@Suite struct ListenTerminalTests {
    static func tmux(_ server: String, _ args: [String]) throws -> (status: Int32, output: String) {
        guard let tool = ["/usr/bin/tmux", "/bin/tmux", "/usr/local/bin/tmux"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw HarnessError("tmux is not installed (scripts/deps.sh test installs it)")
        }
        // posix_spawn and waitpid, output through a file: the tmux server the first call starts
        // keeps a pipe open forever, and Foundation's Process did not reap the tmux client.
        let out = NSTemporaryDirectory() + "gestured-tmux-\(UUID().uuidString.prefix(8))"
        defer { unlink(out) }
        let argv = [tool, "-L", server] + args
        let env = ["TERM=xterm-256color", "PATH=/usr/bin:/bin"]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var cArgs = argv.map { strdup($0) } + [nil]
        var cEnv = env.map { strdup($0) } + [nil]
        defer { (cArgs + cEnv).forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, tool, &actions, nil, &cArgs, &cEnv) == 0 else { throw HarnessError("cannot run tmux") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return (code, (try? String(contentsOfFile: out, encoding: .utf8)) ?? "")
    }

    /// The daemon's count of connected clients.
    static func clients(_ client: Client) throws -> Int {
        let s = try client.command(#"{"status":true}"#)
        return (s["status"] as? [String: Any])?["clients"] as? Int ?? -1
    }

    /// Waits (10 s at most) until `listen` is the daemon's second client, beside `control`.
    static func waitForListen(_ control: Client) throws {
        let deadline = Date().addingTimeInterval(10)
        while try clients(control) < 2 {
            guard Date() < deadline else { throw HarnessError("listen did not connect") }
            usleep(50_000)
        }
    }

    @Test("the circle recording is at most three lines on a terminal: the circle, decided, with turns, radius and fit")
    func circleOnTerminal() throws {
        let daemon = try DaemonHarness(config: "", replays: [DaemonHarness.circleRecording])
        let server = "gestured-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let command = "\(try DaemonHarness.binary()) listen --socket \(daemon.socketPath); sleep 60"
        let started = try Self.tmux(server, ["new-session", "-d", "-x", "200", "-y", "50", command])
        #expect(started.status == 0, "\(started.output)")
        defer { _ = try? Self.tmux(server, ["kill-server"]) }
        let control = try daemon.connect()
        try Self.waitForListen(control)
        try daemon.replayAndWait(control)
        var lines: [String] = []
        let shown = Date().addingTimeInterval(5)
        repeat {
            usleep(100_000)
            let pane = try Self.tmux(server, ["capture-pane", "-p", "-J"])
            lines = pane.output.split(separator: "\n").map(String.init).filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        } while !lines.contains(where: { $0.contains("circle") }) && Date() < shown
        #expect(lines.count <= 3, "\(lines.joined(separator: "\n"))")
        let circle = lines.filter { $0.contains("circle") }
        #expect(circle.count == 1, "\(lines.joined(separator: "\n"))")
        #expect(circle.first.map { $0.contains("recognized") && $0.contains(" turns") && $0.contains("radius ") && $0.contains("fit error ") } == true,
                "\(lines.joined(separator: "\n"))")
        #expect(!lines.contains { $0.contains("pan") }, "\(lines.joined(separator: "\n"))")
    }

    @Test("through a pipe, listen stays one line per event: every pan changed, the cancel, the circle")
    func circleThroughPipe() throws {
        let daemon = try DaemonHarness(config: "", replays: [DaemonHarness.circleRecording])
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try DaemonHarness.binary())
        p.arguments = ["listen", "--socket", daemon.socketPath]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let control = try daemon.connect()
        try Self.waitForListen(control)
        try daemon.replayAndWait(control)
        usleep(300_000)
        daemon.signal(SIGTERM)
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        let lines = text.split(separator: "\n")
        #expect(lines.filter { $0.contains("pan") && $0.contains("changed") }.count > 20, "\(text)")
        #expect(lines.contains { $0.contains("pan") && $0.contains("cancelled") }, "\(text)")
        #expect(lines.contains { $0.contains("circle") && $0.contains("recognized") }, "\(text)")
        #expect(!text.contains("\u{1B}["), "escape sequences in a pipe")
    }
}
