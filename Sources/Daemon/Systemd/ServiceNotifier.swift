import CLinux
import Evdev
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
        guard let path, let address = UnixAddress(path, abstract: true) else { return }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return }
        defer { close(fd) }
        _ = message.withCString { msg in
            address.withSockaddr { sendto(fd, msg, strlen(msg), Int32(MSG_NOSIGNAL), $0, $1) }
        }
    }
}
