import Glibc

/// The listening socket systemd passes (gestured.socket): LISTEN_FDS sockets start at fd 3 and
/// are meant for us only when LISTEN_PID is our pid.
public enum SocketActivation {
    public static func listeningSocket(environment: [String: String]) -> Int32? {
        guard let pidText = environment["LISTEN_PID"], let pid = Int32(pidText), pid == getpid(),
            let countText = environment["LISTEN_FDS"], let count = Int(countText), count >= 1
        else { return nil }
        // Not for our children.
        unsetenv("LISTEN_PID")
        unsetenv("LISTEN_FDS")
        unsetenv("LISTEN_FDNAMES")
        let fd: Int32 = 3
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        return fd
    }
}
