import Daemon
import Glibc
import Testing

/// One sockaddr_un filler (UnixAddress) serves the listener, the client and sd_notify: each
/// against a real socket.
struct UnixAddressTests {
    @Test func notifyReachesAnAbstractSocket() {
        // "@name" in $NOTIFY_SOCKET is an abstract socket: a leading NUL, no file.
        let name = "gestured-test-\(getpid())-abstract"
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #expect(fd >= 0)
        defer { close(fd) }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(name.utf8)
        withUnsafeMutableBytes(of: &addr.sun_path) { buf in for (i, b) in bytes.enumerated() { buf[i + 1] = b } }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + 1 + bytes.count)
        let bound = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        #expect(bound == 0)

        ServiceNotifier(environment: ["NOTIFY_SOCKET": "@" + name]).stopping()
        var buf = [UInt8](repeating: 0, count: 64)
        let n = buf.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        #expect(n > 0 && String(decoding: buf[0..<n], as: UTF8.self) == "STOPPING=1")
    }

    @Test func aPathLongerThanSunPathIsRefusedByName() throws {
        let long = "/tmp/" + String(repeating: "x", count: 200)
        #expect(UnixConnection.connect(path: long) == -1)
        #expect(errno == ENAMETOOLONG)
        #expect(throws: SystemError.self) { try UnixListener(path: long, mode: 0o600, group: nil) }
    }

    @Test func aListenerAcceptsAClientAtItsPath() throws {
        let path = "/tmp/gestured-test-\(getpid())-listener.sock"
        let listener = try UnixListener(path: path, mode: 0o600, group: nil)
        defer { listener.shutdown() }
        let client = UnixConnection.connect(path: path)
        #expect(client >= 0)
        defer { close(client) }
        var accepted: Int32? = nil
        for _ in 0..<100 where accepted == nil {
            accepted = listener.accept()
            if accepted == nil { usleep(1000) }
        }
        #expect(accepted != nil)
        if let accepted { close(accepted) }
    }
}
