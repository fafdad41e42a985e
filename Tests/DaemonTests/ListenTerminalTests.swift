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
        // Output through a file, not a pipe: the tmux server the first call starts keeps the
        // pipe open, and a read to its end would never end.
        let out = NSTemporaryDirectory() + "gestured-tmux-\(UUID().uuidString.prefix(8))"
        _ = FileManager.default.createFile(atPath: out, contents: nil)
        defer { unlink(out) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: tool)
        p.arguments = ["-L", server] + args
        p.environment = ["TERM": "xterm-256color", "PATH": "/usr/bin:/bin"]
        p.standardOutput = FileHandle(forWritingAtPath: out)
        p.standardError = FileHandle(forWritingAtPath: out)
        p.standardInput = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        return (p.terminationStatus, (try? String(contentsOfFile: out, encoding: .utf8)) ?? "")
    }

    /// The daemon's count of connected clients.
    static func clients(_ client: Client) throws -> Int {
        let s = try client.command(#"{"status":true}"#)
        return (s["status"] as? [String: Any])?["clients"] as? Int ?? -1
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
        let deadline = Date().addingTimeInterval(10)
        while try Self.clients(control) < 2 {
            guard Date() < deadline else { throw HarnessError("listen did not connect") }
            usleep(50_000)
        }
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
        let deadline = Date().addingTimeInterval(10)
        while try Self.clients(control) < 2 {
            guard Date() < deadline else { throw HarnessError("listen did not connect") }
            usleep(50_000)
        }
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
