import Foundation
import Glibc
import Testing

/// The real `gestured` binary, started with a temporary config, socket and replay source.
/// The tests talk to it only as an operator and clients would: files, signals, the socket.
final class DaemonHarness {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static var fixtures: String { root.path + "/Tests/Fixtures/recordings" }
    static let circleRecording = fixtures + "/tablets/Wacom_ISDv4_E6_Finger.single-center-circle.events"
    static let dragRecording = fixtures + "/touchscreens/N-Trig_MultiTouch.1-finger-drag-NW-SE.events"

    /// The built binary: GESTURED when set (scripts/test.sh gives the shipped build, so every
    /// test run, sanitizers' too, starts the daemon as installed), else the first build found.
    /// The tests fail loudly when it is missing (run `swift build` first).
    static func binary() throws -> String {
        if let p = ProcessInfo.processInfo.environment["GESTURED"] {
            guard FileManager.default.isExecutableFile(atPath: p) else {
                Issue.record("GESTURED=\(p) is not an executable")
                throw HarnessError("no gestured binary at GESTURED=\(p)")
            }
            return p
        }
        for dir in [".build/debug", ".build/x86_64-unknown-linux-gnu/debug", ".build/release"] {
            let p = root.path + "/" + dir + "/gestured"
            if FileManager.default.isExecutableFile(atPath: p) { return p }
        }
        Issue.record("gestured is not built: run `swift build` before `swift test`")
        throw HarnessError("no gestured binary under \(root.path)/.build")
    }

    let dir: String
    let configPath: String
    let socketPath: String
    let logPath: String
    let process: Process

    /// Starts the daemon; unless `waitForSocket` is false, returns once its socket exists
    /// (a daemon told to exit after a fast replay may be gone before that).
    /// `environment`: variables added to the test's own (RUNTIME_DIRECTORY, as systemd sets it).
    init(config: String, replays: [String], extraArgs: [String] = ["--hold-replay", "--fast"], waitForSocket: Bool = true,
         environment: [String: String] = [:]) throws {
        let binary = try Self.binary()
        dir = NSTemporaryDirectory() + "gestured-test-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        configPath = dir + "/gestures.toml"
        socketPath = dir + "/gestured.sock"
        logPath = dir + "/daemon.log"
        try config.replacingOccurrences(of: "$DIR", with: dir).write(toFile: configPath, atomically: true, encoding: .utf8)
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["--config", configPath, "--socket", socketPath] + replays.flatMap { ["--replay", $0] } + extraArgs
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        while waitForSocket, !FileManager.default.fileExists(atPath: socketPath) {
            guard process.isRunning, Date() < deadline else {
                throw HarnessError("daemon did not create its socket; log:\n\(log)")
            }
            usleep(20_000)
        }
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: dir)
    }

    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Waits up to `timeout` seconds for `path` to exist (a command's output, a socket); true if it does.
    @discardableResult
    static func waitForFile(_ path: String, timeout: Double = 5) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !FileManager.default.fileExists(atPath: path) {
            guard Date() < deadline else { return false }
            usleep(20_000)
        }
        return true
    }

    /// The text of `name` in the test's directory once a bound command has written it; nil if
    /// it does not appear within `timeout` seconds.
    func written(_ name: String, timeout: Double = 5) -> String? {
        let path = dir + "/" + name
        guard Self.waitForFile(path, timeout: timeout) else { return nil }
        return try? String(contentsOfFile: path, encoding: .utf8)
    }

    func connect() throws -> Client { try Client(path: socketPath) }

    func signal(_ s: Int32) { kill(process.processIdentifier, s) }

    /// Waits for the daemon to exit; nil on timeout.
    func waitForExit(timeout: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        return process.isRunning ? nil : process.terminationStatus
    }

    /// Starts the recordings and waits until they are over (status "replaying": 0).
    func replayAndWait(_ client: Client) throws {
        let reply = try client.command(#"{"replay":true}"#)
        #expect(reply["ok"] as? Bool == true, "\(reply)")
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            let s = try client.command(#"{"status":true}"#)
            if let st = s["status"] as? [String: Any], st["replaying"] as? Int == 0 { return }
            usleep(50_000)
        }
        throw HarnessError("replay did not finish; log:\n\(log)")
    }
}

struct HarnessError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

/// A socket client: JSON lines in and out, with timeouts so a test never hangs.
final class Client {
    let fd: Int32
    private var pending: [UInt8] = []
    /// Events read while waiting for a command reply, kept for the test to look at.
    private(set) var events: [[String: Any]] = []

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { buf in
            for (i, b) in path.utf8.enumerated() { buf[i] = b }
        }
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        // Not closed here: every stored property is set, so a throw runs `deinit`, which closes
        // it. Closing it here as well closed it twice: the second time, whatever another test
        // running alongside had opened on the same number meanwhile.
        if rc < 0 { throw HarnessError("connect \(path): \(String(cString: strerror(errno)))") }
    }

    deinit { close(fd) }

    func send(_ line: String) {
        let data = Array((line + "\n").utf8)
        var off = 0
        while off < data.count {
            let n = data.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + off, data.count - off, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            off += n
        }
    }

    /// The next line, or nil after `timeout` seconds (or when the daemon closed the connection).
    func readLine(timeout: Double) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let nl = pending.firstIndex(of: 10) {
                let line = String(decoding: pending[0..<nl], as: UTF8.self)
                pending.removeSubrange(0...nl)
                return line
            }
            let left = deadline.timeIntervalSinceNow
            if left <= 0 { return nil }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&p, 1, Int32(left * 1000) + 1) <= 0 { continue }
            var buf = [UInt8](repeating: 0, count: 65536)
            let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { return nil }
            pending.append(contentsOf: buf[0..<n])
        }
    }

    func readJSON(timeout: Double) -> [String: Any]? {
        guard let line = readLine(timeout: timeout), let data = line.data(using: .utf8) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }

    /// Keeps an event read with `readJSON` with those `command` kept.
    func keep(_ event: [String: Any]) { events.append(event) }

    /// Sends a command and returns its reply (gesture events that arrive first are kept in `events`).
    func command(_ line: String) throws -> [String: Any] {
        send(line)
        while let obj = readJSON(timeout: 5) {
            if obj["gesture"] != nil || obj["event"] != nil { events.append(obj); continue }
            return obj
        }
        throw HarnessError("no reply to \(line)")
    }

    /// Every gesture event that arrives within `timeout` seconds (plus those kept already).
    func collectEvents(for timeout: Double) -> [[String: Any]] {
        let deadline = Date().addingTimeInterval(timeout)
        while deadline.timeIntervalSinceNow > 0, let obj = readJSON(timeout: deadline.timeIntervalSinceNow) {
            if obj["gesture"] != nil || obj["event"] != nil { events.append(obj) }
        }
        let out = events
        events = []
        return out
    }
}
