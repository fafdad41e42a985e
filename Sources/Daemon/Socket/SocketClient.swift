import CLinux
import Evdev
import Glibc

/// One connected client: what it sent that is not a full line yet, what we owe it, and what it
/// subscribed to. Output is queued and written when the socket is writable; a client whose
/// queue passes the limit is too slow or stuck and gets dropped.
final class SocketClient {
    let fd: Int32
    let id: Int
    /// When it connected, and whether it has sent a whole line since (a client that never has may
    /// lose its slot to a new one when all are taken: SocketHub).
    let connectedAt: Double
    var hasSpoken = false
    /// Who connected (SO_PEERCRED), for `ControlPolicy`; nil when the kernel would not say.
    let peer: ControlPolicy.Peer?
    /// Gesture names the client wants; nil = everything.
    var subscriptions: Set<String>? = nil
    /// The loop also waits for the socket to take more output (EPOLLOUT): set while a flush is pending.
    var waitsToWrite = false
    /// Broadcast events are queued for it and not yet written (SocketHub.flushBroadcasts).
    var hasUnsentBroadcast = false
    private var input: [UInt8] = []
    private var output: [UInt8] = []
    private var outputStart = 0

    /// Lines it may still send (`[socket] lines_per_second`).
    var allowance: LineAllowance

    init(fd: Int32, id: Int, peer: ControlPolicy.Peer?, linesPerSecond: Int) {
        self.fd = fd
        self.id = id
        connectedAt = MonotonicClock.now()
        self.peer = peer
        allowance = LineAllowance(perSecond: linesPerSecond, now: connectedAt)
    }

    var pendingBytes: Int { output.count - outputStart }
    /// When the client started the line it has not finished yet (nil: no partial line).
    var partialLineSince: Double? = nil
    var hasPartialLine: Bool { !input.isEmpty }

    func wants(_ gesture: String) -> Bool {
        guard let s = subscriptions else { return true }
        return !s.isEmpty && s.contains(gesture)  // subscribed to none: no hashing
    }

    enum ReadResult { case lines([String]), closed, lineTooLong }

    /// Reads at most `budget` bytes — one wakeup's share: the loop's epoll is level-triggered, so
    /// what is left waits for the next wakeup while other clients and the devices are served — and
    /// splits off the complete lines. Each line is taken out once (no per-line shifting of the
    /// buffer: a flood of blank lines was quadratic).
    func readLines(maxLine: Int, budget: Int) -> ReadResult {
        var lines: [String] = []
        var taken = 0
        while taken < budget {
            let before = input.count
            let room = min(4096, budget - taken)
            input.append(contentsOf: repeatElement(0, count: room))
            let read: Int?
            do {
                read = try input.withUnsafeMutableBytes { buffer throws(Errno) in
                    try FileIO.readAvailable(fd, into: UnsafeMutableRawBufferPointer(rebasing: buffer[before...]))
                }
            } catch {
                return .closed
            }
            input.removeLast(room - (read ?? 0))
            guard let n = read else { break }
            if n == 0 { return .closed }
            taken += n
            var start = 0
            for i in before..<input.count where input[i] == 10 {
                lines.append(String(decoding: input[start..<i], as: UTF8.self))
                start = i + 1
            }
            input.removeFirst(start)
            if input.count > maxLine { return .lineTooLong }
        }
        return .lines(lines)
    }

    enum FlushResult { case done, pending, failed }

    /// Queues `line` + newline; false when that would pass `limit` bytes pending.
    func enqueue(_ line: String, limit: Int) -> Bool {
        if pendingBytes + line.utf8.count + 1 > limit { return false }
        if outputStart > 0 && outputStart * 2 > output.count {
            output.removeSubrange(0..<outputStart)
            outputStart = 0
        }
        output.append(contentsOf: line.utf8)
        output.append(10)
        return true
    }

    /// Writes as much as the socket takes, never blocking.
    func flush() -> FlushResult {
        while outputStart < output.count {
            // send, not write: MSG_NOSIGNAL, so a client gone away is EPIPE, not a SIGPIPE.
            let n = output.withUnsafeBytes { buf in
                retryingInterrupts { send(fd, buf.baseAddress! + outputStart, output.count - outputStart, Int32(MSG_NOSIGNAL)) }
            }
            if n < 0 { return errno == EAGAIN ? .pending : .failed }
            outputStart += n
        }
        output.removeAll(keepingCapacity: true)
        outputStart = 0
        return .done
    }
}
