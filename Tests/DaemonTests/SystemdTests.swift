import Foundation
import Glibc
import Testing

/// The unit files, as systemd reads them, and the daemon's side of the systemd protocols:
/// readiness notification to NOTIFY_SOCKET and a listening socket passed with LISTEN_FDS.
@Suite(.serialized) struct SystemdTests {
    static func run(_ args: [String], environment: [String: String]? = nil) throws -> (status: Int32, output: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = args
        if let environment { p.environment = environment }
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = pipe
        try p.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func systemdAnalyzeVerifyAcceptsTheUnits() throws {
        let binary = try DaemonHarness.binary()
        let dir = NSTemporaryDirectory() + "gestured-units-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let units = DaemonHarness.root.path + "/systemd"
        // The unit names the installed path; point it at the built binary (verify checks it exists).
        let service = try String(contentsOfFile: units + "/gestured.service", encoding: .utf8)
            .replacingOccurrences(of: "/usr/local/bin/gestured", with: binary)
        try service.write(toFile: dir + "/gestured.service", atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(atPath: units + "/gestured.socket", toPath: dir + "/gestured.socket")
        let r = try Self.run(["systemd-analyze", "verify", dir + "/gestured.service", dir + "/gestured.socket"])
        #expect(r.status == 0, "\(r.output)")
        #expect(!r.output.contains("gestured."), "warnings about our units: \(r.output)")
        #expect(service.contains("Type=notify") && service.contains("DeviceAllow=char-input r"))
    }

    @Test func socketActivationAndReadinessNotification() throws {
        let binary = try DaemonHarness.binary()
        let dir = NSTemporaryDirectory() + "gestured-sd-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "[socket]\nmode = \"0600\"\n".write(toFile: dir + "/c.toml", atomically: true, encoding: .utf8)

        // A notify socket, as systemd would provide.
        let notifyPath = dir + "/notify"
        let nfd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(nfd) }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { buf in for (i, b) in notifyPath.utf8.enumerated() { buf[i] = b } }
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(nfd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(rc == 0)

        // systemd-socket-activate creates the listening socket and passes it as fd 3 with LISTEN_FDS.
        let socketPath = dir + "/activated.sock"
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/systemd-socket-activate")
        p.arguments = ["-l", socketPath, "-E", "NOTIFY_SOCKET=\(notifyPath)", binary, "--config", dir + "/c.toml",
                       "--replay", DaemonHarness.circleRecording, "--hold-replay"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        defer { if p.isRunning { kill(p.processIdentifier, SIGKILL); p.waitUntilExit() } }
        DaemonHarness.waitForFile(socketPath, timeout: 10)
        // The daemon starts at the first connection and answers on the passed socket.
        let c = try Client(path: socketPath)
        let status = try c.command(#"{"status":true}"#)
        #expect((status["status"] as? [String: Any])?["version"] is String, "\(status)")

        var tv = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(nfd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var buf = [UInt8](repeating: 0, count: 512)
        let n = buf.withUnsafeMutableBytes { recv(nfd, $0.baseAddress, $0.count, 0) }
        let message = n > 0 ? String(decoding: buf[0..<n], as: UTF8.self) : ""
        #expect(message.hasPrefix("READY=1"), "\(message)")

        kill(p.processIdentifier, SIGTERM)
        let n2 = buf.withUnsafeMutableBytes { recv(nfd, $0.baseAddress, $0.count, 0) }
        #expect(n2 > 0 && String(decoding: buf[0..<n2], as: UTF8.self) == "STOPPING=1")
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
    }
}
