import Foundation
import Glibc
import Testing

/// A real mosquitto broker on a free loopback port, for the `[mqtt]` tests. It can be killed
/// and started again on the same port; it keeps its sessions on disk (saved at every change),
/// so a persistent subscriber misses nothing across a kill.
final class Broker {
    let dir: String
    let port: Int
    private var process: Process?

    init() throws {
        dir = NSTemporaryDirectory() + "gestured-broker-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        // Started as root, mosquitto drops to its own user: it must still save its sessions here.
        chmod(dir, 0o777)
        port = try Self.freePort()
        try """
            listener \(port) 127.0.0.1
            allow_anonymous true
            persistence true
            persistence_location \(dir)/
            autosave_interval 1
            log_dest file \(dir)/broker.log
            """.write(toFile: dir + "/mosquitto.conf", atomically: true, encoding: .utf8)
        try start()
    }

    deinit {
        kill()
        try? FileManager.default.removeItem(atPath: dir)
    }

    var url: String { "mqtt://127.0.0.1:\(port)" }
    var pid: Int32 { process?.processIdentifier ?? 0 }

    func start() throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try Self.tool("mosquitto"))
        p.arguments = ["-c", dir + "/mosquitto.conf"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        process = p
        let deadline = Date().addingTimeInterval(10)
        while !Self.accepts(port) {
            guard p.isRunning, Date() < deadline else { throw HarnessError("mosquitto did not start on port \(port)") }
            usleep(20_000)
        }
    }

    /// Waits for the broker's next save of its sessions (every second), so that a persistent
    /// subscriber's session outlives a SIGKILL.
    func persist() throws {
        let db = dir + "/mosquitto.db"
        try? FileManager.default.removeItem(atPath: db)
        let deadline = Date().addingTimeInterval(5)
        while !FileManager.default.fileExists(atPath: db) {
            guard Date() < deadline else { throw HarnessError("mosquitto did not save its sessions: \((try? String(contentsOfFile: dir + "/broker.log", encoding: .utf8)) ?? "")") }
            usleep(20_000)
        }
        usleep(100_000)
    }

    /// SIGKILL: the broker vanishes as in a crash or a pulled cable.
    func kill() {
        guard let p = process, p.isRunning else { return }
        Glibc.kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        process = nil
    }

    /// Publishes one message with mosquitto_pub.
    func publish(_ topic: String, _ payload: String, retain: Bool = false) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try Self.tool("mosquitto_pub"))
        p.arguments = ["-h", "127.0.0.1", "-p", String(port), "-q", "1", "-t", topic, "-m", payload] + (retain ? ["-r"] : [])
        try p.run()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
    }

    /// The first `count` messages on `topic` (retained ones included), read with mosquitto_sub.
    func receive(_ topic: String, count: Int = 1, timeout: Int = 10) throws -> [String] {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try Self.tool("mosquitto_sub"))
        p.arguments = ["-h", "127.0.0.1", "-p", String(port), "-t", topic, "-C", String(count), "-W", String(timeout)]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// The retained messages under `filter` (a topic or wildcard): topic → payload, read with
    /// mosquitto_sub. It also subscribes to a marker topic and, with `--retained-only`, exits at
    /// the first message that is not retained: the broker sends every retained message before a
    /// marker published after the subscription, so the marker, published until it exits (10 s
    /// at most), ends the read however slow the host. (Not its own -W timer: a SIGALRM, which
    /// the test runner's threads may block.)
    func retained(_ filter: String) throws -> [String: String] {
        let marker = "gestured-test/marker/\(getpid())"
        let outPath = "/tmp/gestured-retained-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        defer { unlink(outPath) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try Self.tool("mosquitto_sub"))
        p.arguments = ["-h", "127.0.0.1", "-p", String(port), "-t", filter, "-t", marker, "-v", "--retained-only"]
        p.standardOutput = FileHandle(forWritingAtPath: outPath)
        try p.run()
        for _ in 0..<100 where p.isRunning {
            usleep(100_000)
            try publish(marker, "end")
        }
        if p.isRunning { Glibc.kill(p.processIdentifier, SIGKILL) }
        p.waitUntilExit()
        let data = FileManager.default.contents(atPath: outPath) ?? Data()
        var messages: [String: String] = [:]
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
            messages[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        return messages
    }

    /// The retained messages under `filter`, read again until `done` holds of them (10 s at most):
    /// what the daemon publishes or clears after a command or reload arrives in its own time.
    func retained(_ filter: String, until done: ([String: String]) -> Bool) throws -> [String: String] {
        let deadline = Date().addingTimeInterval(10)
        var messages = try retained(filter)
        while !done(messages), Date() < deadline { messages = try retained(filter) }
        return messages
    }

    static func tool(_ name: String) throws -> String {
        for dir in ["/usr/sbin", "/usr/bin", "/usr/local/sbin", "/usr/local/bin"] where FileManager.default.isExecutableFile(atPath: dir + "/" + name) {
            return dir + "/" + name
        }
        Issue.record("\(name) is missing: scripts/deps.sh test installs mosquitto and mosquitto-clients")
        throw HarnessError("no \(name)")
    }

    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = loopback(port: 0)
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) == 0 && getsockname(fd, $0, &len) == 0 }
        }
        guard ok else { throw HarnessError("no free port") }
        return Int(UInt16(bigEndian: addr.sin_port))
    }

    static func loopback(port: Int) -> sockaddr_in {
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = UInt16(port).bigEndian
        return addr
    }

    static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = loopback(port: port)
        return withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}

/// A persistent mosquitto_sub (its session survives broker restarts), collecting `topic value` lines.
final class Subscriber {
    private let process = Process()
    private let outPath: String

    init(_ broker: Broker, topic: String, id: String) throws {
        outPath = broker.dir + "/sub-\(id).txt"
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        // Line-buffered, so that its debug lines (SUBACK) show when they happen.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/stdbuf")
        // -c -i: a persistent session; -q 1: the broker keeps QoS 1 messages for it while it is away.
        process.arguments = ["-oL", try Broker.tool("mosquitto_sub"), "-h", "127.0.0.1", "-p", String(broker.port), "-c", "-i", id, "-q", "1", "-v", "-d", "-t", topic]
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        while !raw.contains("SUBACK") {
            guard Date() < deadline else { throw HarnessError("mosquitto_sub did not subscribe: \(raw)") }
            usleep(20_000)
        }
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
    }

    private var raw: String { (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "" }

    /// Messages so far (mosquitto_sub's debug lines left out).
    var messages: [String] { raw.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("Client ") } }

    func messages(on topic: String) -> [String] {
        messages.filter { $0.hasPrefix(topic + " ") }.map { String($0.dropFirst(topic.count + 1)) }
    }

    /// Waits until `count` messages arrived on `topic`; returns what arrived by then.
    @discardableResult
    func wait(for count: Int, on topic: String, timeout: Double = 10) -> [String] {
        let deadline = Date().addingTimeInterval(timeout)
        while messages(on: topic).count < count && Date() < deadline { usleep(20_000) }
        return messages(on: topic)
    }
}
