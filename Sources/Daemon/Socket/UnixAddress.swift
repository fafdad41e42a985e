import Glibc

/// A Unix socket's address (sockaddr_un), filled once for bind, connect and sendto. With
/// `abstract`, a leading "@" names an abstract socket (a NUL byte, no terminator), as systemd
/// writes $NOTIFY_SOCKET.
struct UnixAddress {
    private var storage = sockaddr_un()
    let length: socklen_t

    /// nil when the path does not fit sun_path (ENAMETOOLONG).
    init?(_ path: String, abstract: Bool = false) {
        storage.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        let isAbstract = abstract && bytes.first == UInt8(ascii: "@")
        if isAbstract { bytes[0] = 0 } else { bytes.append(0) }
        guard bytes.count <= MemoryLayout.size(ofValue: storage.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &storage.sun_path) { buf in
            for (i, b) in bytes.enumerated() { buf[i] = b }
        }
        length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
    }

    /// Calls `body` with the address as the sockaddr that bind, connect and sendto take.
    func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        withUnsafePointer(to: storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }
}
