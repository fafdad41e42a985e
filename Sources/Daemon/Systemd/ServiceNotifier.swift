import CLinux
import Glibc

/// sd_notify without libsystemd: one datagram per state change to $NOTIFY_SOCKET
/// (READY=1, RELOADING=1 + MONOTONIC_USEC, STOPPING=1). A no-op when not run by systemd.
public struct ServiceNotifier {
    private let path: String?

    public init(environment: [String: String]) {
        path = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
    }

    public var isActive: Bool { path != nil }

    public func ready(status: String) { send("READY=1\nSTATUS=\(status)") }
    public func reloading() { send("RELOADING=1\nMONOTONIC_USEC=\(UInt64(MonotonicClock.now() * 1e6))") }
    public func stopping() { send("STOPPING=1") }

    public func send(_ message: String) {
        guard let path else { return }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        // "@name" is an abstract socket: a leading NUL byte.
        if bytes.first == UInt8(ascii: "@") { bytes[0] = 0 }
        guard bytes.count < MemoryLayout.size(ofValue: addr.sun_path) else { return }
        withUnsafeMutableBytes(of: &addr.sun_path) { buf in for (i, b) in bytes.enumerated() { buf[i] = b } }
        let len = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (bytes.first == 0 ? 0 : 1))
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return }
        defer { close(fd) }
        _ = message.withCString { msg in
            withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { sendto(fd, msg, strlen(msg), Int32(MSG_NOSIGNAL), $0, len) }
            }
        }
    }
}
