import CLinux
import Glibc

/// SIGTERM, SIGINT, SIGHUP and SIGCHLD as readable events on a signalfd, so that they are
/// handled in the loop like any other input (no async-signal-safety puzzles).
public final class SignalChannel {
    public static let handled: [Int32] = [SIGTERM, SIGINT, SIGHUP, SIGCHLD]
    public let fd: Int32

    public init() throws {
        var set = sigset_t()
        sigemptyset(&set)
        for s in Self.handled { sigaddset(&set, s) }
        // Blocked so that they queue for the signalfd instead of running default actions.
        pthread_sigmask(SIG_BLOCK, &set, nil)
        fd = signalfd(-1, &set, Int32(SFD_NONBLOCK) | Int32(SFD_CLOEXEC))
        if fd < 0 { throw SystemError("signalfd") }
    }

    deinit { close(fd) }

    /// Each signal that arrived since the last call, in order (no array: one SIGCHLD per command).
    public func drain(_ body: (Int32) -> Void) {
        var info = signalfd_siginfo()
        while read(fd, &info, MemoryLayout<signalfd_siginfo>.size) == MemoryLayout<signalfd_siginfo>.size {
            body(Int32(info.ssi_signo))
        }
    }
}
