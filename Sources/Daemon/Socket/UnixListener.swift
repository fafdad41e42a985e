import CLinux
import Evdev
import Glibc

/// The listening Unix socket: created at a path with the configured mode and group, or handed
/// over by systemd (socket activation), in which case systemd owns the path.
public final class UnixListener {
    public let fd: Int32
    /// The path we created and must remove on exit; nil when systemd passed the socket.
    public let ownedPath: String?

    public init(adopting fd: Int32) {
        self.fd = fd
        self.ownedPath = nil
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    /// Binds, sets mode and group, and listens on a temporary name, then renames it into place:
    /// a client that sees the path can connect at once (no window between bind and listen), and
    /// never sees the socket with the wrong permissions.
    public init(path: String, mode: UInt32, group: String?) throws {
        var st = stat()
        if lstat(path, &st) == 0 {
            // A socket file left by a crashed instance is replaced; a live one is not ours to take.
            guard Self.isStaleSocket(path) else {
                throw SystemError("\(path) exists and is not a stale socket (another gestured running?)", code: EADDRINUSE)
            }
        }
        let staging = path + ".\(getpid()).new"
        guard let address = UnixAddress(staging) else { throw SystemError("socket path too long", code: ENAMETOOLONG) }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        if fd < 0 { throw SystemError("socket") }
        func fail(_ e: SystemError) -> SystemError {
            close(fd)
            unlink(staging)
            return e
        }
        unlink(staging)
        let rc = address.withSockaddr { bind(fd, $0, $1) }
        if rc < 0 { let e = SystemError("bind \(path)"); close(fd); throw e }
        if chmod(staging, mode_t(mode)) < 0 { throw fail(SystemError("chmod \(path)")) }
        if let g = group {
            guard let gr = getgrnam(g) else { throw fail(SystemError("unknown group \(g)", code: EINVAL)) }
            if chown(staging, uid_t.max, gr.pointee.gr_gid) < 0 { throw fail(SystemError("chown \(path) to group \(g)")) }
        }
        if listen(fd, 64) < 0 { throw fail(SystemError("listen")) }
        if rename(staging, path) < 0 { throw fail(SystemError("rename \(staging) to \(path)")) }
        self.fd = fd
        self.ownedPath = path
    }

    /// True when `path` is a socket nobody accepts on.
    private static func isStaleSocket(_ path: String) -> Bool {
        var st = stat()
        guard lstat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFSOCK else { return false }
        let probe = UnixConnection.connect(path: path)
        if probe >= 0 { close(probe); return false }
        return true
    }

    /// Accepts one pending connection, non-blocking; nil when none is waiting.
    public func accept() -> Int32? {
        let c = gestured_accept(fd)
        return c >= 0 ? c : nil
    }

    public func shutdown() {
        Glibc.close(fd)
        if let p = ownedPath { unlink(p) }
    }
}

/// Client side of the socket, for `gestured listen` (blocking).
public enum UnixConnection {
    public static func connect(path: String) -> Int32 {
        guard let address = UnixAddress(path) else { errno = ENAMETOOLONG; return -1 }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        if fd < 0 { return -1 }
        let rc = retryingInterrupts { address.withSockaddr { Glibc.connect(fd, $0, $1) } }
        if rc < 0 { let e = errno; Glibc.close(fd); errno = e; return -1 }
        return fd
    }
}
