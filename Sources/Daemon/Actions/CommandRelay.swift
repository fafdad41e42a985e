import Evdev
import GestureKit
import Glibc

/// `gestured relay-command SOCKET -- PROGRAM ARGS…`: what the daemon starts for a bound command
/// when commands run as the runner's user (CommandLaunch.runner). It hands the command to the
/// runner (CommandRunner) and stands for it: the daemon's supervisor times it out, stops it and
/// reaps it exactly as a command it started itself. SIGTERM, SIGINT and SIGHUP are passed on to
/// the command's group; SIGKILL ends the connection, on which the runner kills the group. It
/// ends as the command ended: the same exit status, or killed by the same signal.
///
/// Only the gesture's `GESTURE_*` variables cross; the daemon's own environment stays behind.
public enum CommandRelay {
    /// The relay's status when the command never ran: the runner unreachable, or it refused.
    public static let notRun: Int32 = 126

    public static func run(socket path: String, argv: [String]) -> Int32 {
        let signals: SignalChannel
        do { signals = try SignalChannel() } catch { return fail("\(error)") }
        // A runner that is gone must not kill the relay on a `signal` line: the relay says why.
        signal(SIGPIPE, SIG_IGN)
        let fd = UnixConnection.connect(path: path)
        guard fd >= 0 else {
            return fail("cannot reach the command runner at \(path): \(Errno.current) (is gestured-commands.socket running?)")
        }
        let request = RunnerRequest(argv: argv, variables: gestureVariables())
        let sent = request.encoded().withUnsafeBytes { b -> Errno? in
            do throws(Errno) { try FileIO.write(fd, all: b); return nil } catch { return error }
        }
        if let e = sent { return fail("cannot send the command to the runner: \(e)") }
        var lines = LineBuffer()
        while true {
            var fds = [pollfd(fd: signals.fd, events: Int16(POLLIN), revents: 0), pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
            if poll(&fds, 2, -1) < 0 && errno != EINTR { return fail("poll: \(Errno.current)") }
            signals.drain { s in
                if s != SIGCHLD { CommandRunner.reply(fd, "signal \(s)") }
            }
            guard fds[1].revents != 0 else { continue }
            guard let got = lines.read(fd) else { return fail("the command runner closed the connection before the command ended") }
            for line in got {
                if line.hasPrefix("exited "), let status = Int32(line.dropFirst(7)) { endAs(status) }
                if line.hasPrefix("refused ") { return fail("the command runner refused \(Printable.escaping(argv[0])): \(line.dropFirst(8))") }
            }
        }
    }

    /// Exits as the command did: its status, or raising the signal that killed it (without a core).
    private static func endAs(_ status: Int32) -> Never {
        let signal = status & 0x7f
        if signal == 0 { exit((status >> 8) & 0xff) }
        var none = rlimit(rlim_cur: 0, rlim_max: 0)
        setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &none)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, signal)
        Glibc.signal(signal, SIG_DFL)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        raise(signal)
        exit(128 + signal)
    }

    private static func gestureVariables() -> [String] { ProcessEnvironment.entries.filter(RunnerRequest.isGestureVariable) }

    private static func fail(_ why: String) -> Int32 {
        StandardStream.writeError("gestured relay-command: \(why)\n")
        return notRun
    }
}
