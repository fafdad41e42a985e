import CLinux
import Evdev
import GestureKit
import Glibc

/// `gestured run-command`: one bound command, run for the daemon by an instance of
/// gestured-commands@.service (socket-activated, `Accept=yes`, the connection on standard input).
/// That unit's user is not the daemon's: the command gets neither the `input` group (every
/// keyboard), nor /dev/uinput (typing), nor the daemon's credentials and runtime directory.
///
/// It reads one RunnerRequest, starts the command in its own process group with standard input
/// from /dev/null (output to the unit's journal), passes on the relay's `signal N` lines to the
/// group, and answers `exited STATUS` when the command and everything left in its group have
/// ended — the same end of a run the daemon's supervisor keeps. When the relay goes away (the
/// daemon killed it, or died) the group is killed. Whatever left the group is stopped by systemd
/// with the unit instance, when this process exits.
public enum CommandRunner {
    /// Seconds the relay has to send its request.
    static let requestSeconds: Int32 = 5

    /// Serves the connection on `connection`; the process's exit status.
    public static func serve(connection: Int32 = STDIN_FILENO) -> Int32 {
        let signals: SignalChannel
        do { signals = try SignalChannel() } catch { return fail("\(error)") }
        _ = gestured_become_subreaper()
        // A relay that is gone must not kill the runner on its last reply (the command gets
        // SIGPIPE's default back from the Spawner).
        signal(SIGPIPE, SIG_IGN)
        // The connection moves off standard input, which the command gets as /dev/null.
        let socket = fcntl(connection, F_DUPFD_CLOEXEC, 3)
        guard socket >= 0 else { return fail("cannot keep the connection: \(Errno.current)") }
        let null = open("/dev/null", O_RDONLY)
        if null >= 0, null != connection { dup2(null, connection); close(null) }
        // Started as inetd starts a service (`systemd-socket-activate --inetd`), standard output
        // is the connection too: the command's output goes to standard error instead, not into
        // the relay's replies. Under gestured-commands@.service both go to the journal.
        if sameFile(STDOUT_FILENO, socket) { dup2(STDERR_FILENO, STDOUT_FILENO) }

        var bytes: [UInt8] = []
        let request: RunnerRequest
        do {
            guard let r = try readRequest(socket, into: &bytes) else { return fail("no request within \(requestSeconds) s") }
            request = r
        } catch {
            reply(socket, "refused \(error)")
            return fail("refused: \(error)")
        }
        let pid: pid_t
        do {
            let base = ownEnvironment().map { strdup($0) }
            var variables: [UInt8] = []
            for v in request.variables { variables += v.utf8; variables.append(0) }
            pid = try Spawner.spawn(argv: request.argv, base: base, variables: variables)
        } catch {
            reply(socket, "refused \(error)")
            return fail("\(error)")
        }
        StandardStream.writeError("gestured run-command: started \(Printable.escaping(request.argv[0])) (pid \(pid))\n")
        reply(socket, "started \(pid)")
        let status = supervise(pid, socket: socket, signals: signals)
        reply(socket, "exited \(status)")
        return 0
    }

    /// Waits for the command's group to end, passing on the relay's signals; the command's wait status.
    private static func supervise(_ pid: pid_t, socket: Int32, signals: SignalChannel) -> Int32 {
        var status: Int32?
        var relayGone = false
        var lines = LineBuffer()
        while true {
            if status != nil && !groupAlive(pid) { return status! }
            var fds = [pollfd(fd: signals.fd, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: relayGone ? -1 : socket, events: Int16(POLLIN), revents: 0)]
            // A group member that is not our child (it left for a new session and back) is polled for.
            if poll(&fds, 2, status == nil ? -1 : 100) < 0 && errno != EINTR { return status ?? 0 }
            signals.drain { s in
                if s == SIGCHLD { return }
                // systemd stopping the instance: the group goes with it.
                kill(-pid, s)
            }
            while true {
                var st: Int32 = 0
                let child = waitpid(-1, &st, WNOHANG)
                if child <= 0 { break }
                if child == pid { status = st }
            }
            if fds[1].revents != 0 {
                switch lines.read(socket) {
                case .some(let got):
                    for line in got {
                        if line.hasPrefix("signal "), let n = Int32(line.dropFirst(7)), n > 0, n < 65 { kill(-pid, n) }
                    }
                case .none:
                    // The relay is gone: nobody waits for the run, and nobody can stop it.
                    relayGone = true
                    kill(-pid, SIGKILL)
                }
            }
        }
    }

    /// Reads until the request is whole; nil when the relay says nothing in time.
    private static func readRequest(_ socket: Int32, into bytes: inout [UInt8]) throws -> RunnerRequest? {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            if let (r, _) = try RunnerRequest.decode(bytes) { return r }
            var p = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, requestSeconds * 1000) > 0 else { return nil }
            let n = chunk.withUnsafeMutableBytes { read(socket, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw RunnerRequest.Refusal(description: "the connection ended inside the request") }
            bytes += chunk[..<n]
        }
    }

    /// This process's environment for the command, minus socket activation's variables.
    private static func ownEnvironment() -> [String] {
        ProcessEnvironment.entries.filter { !$0.hasPrefix("LISTEN_") && !$0.hasPrefix(RunnerRequest.variablePrefix) }
    }

    private static func sameFile(_ a: Int32, _ b: Int32) -> Bool {
        var sa = stat(), sb = stat()
        return fstat(a, &sa) == 0 && fstat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino
    }

    static func groupAlive(_ group: pid_t) -> Bool { kill(-group, 0) == 0 || errno == EPERM }

    static func reply(_ socket: Int32, _ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { b in try? FileIO.write(socket, all: b) }
    }

    private static func fail(_ why: String) -> Int32 {
        StandardStream.writeError("gestured run-command: \(why)\n")
        return 1
    }
}

/// Lines read from a socket a read at a time; what follows the last newline waits for the next.
struct LineBuffer {
    private var pending: [UInt8] = []
    static let maxLine = 256

    /// The whole lines a read brought (maybe none); nil at the end of the stream, on an error, or
    /// when a line passes `maxLine` bytes (the peer is not a relay).
    mutating func read(_ fd: Int32) -> [Substring]? {
        var chunk = [UInt8](repeating: 0, count: 512)
        let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        if n < 0 && (errno == EINTR || errno == EAGAIN) { return [] }
        guard n > 0 else { return nil }
        pending += chunk[..<n]
        var lines: [Substring] = []
        while let nl = pending.firstIndex(of: UInt8(ascii: "\n")) {
            lines.append(Substring(String(decoding: pending[..<nl], as: UTF8.self)))
            pending.removeSubrange(...nl)
        }
        return pending.count > Self.maxLine ? nil : lines
    }
}
