import CLinux
import Evdev
import GestureKit
import Glibc
import Logging

/// Clients of the Unix socket: accepts them (up to the limit), sends each the events it
/// subscribed to as JSON Lines, answers their command lines through `ClientProtocol`, and drops
/// the ones that fall behind.
/// Every write is non-blocking; nothing a client does can stall the loop.
public final class SocketHub: GestureSink, LoopSource {
    /// The loop its listener and clients are in, once attached.
    private var loop: EventLoop?
    private let listener: UnixListener
    private var clients: [Int32: SocketClient] = [:]
    private var nextID = 1
    private let maxClients: Int
    /// Slots one user (uid) may hold; root is not limited (it may stop the daemon anyway).
    private let maxClientsPerUser: Int
    private let linesPerSecond: Int
    private let bufferLimit: Int
    private let log: Logger
    private let lineTimeout: Double
    private let idleTimeout: Double
    /// Wakes the hub for a partial line's timeout and for the refusal summary.
    private let timer: DeadlineTimer
    /// Clients refused since the last log line, and when the next summary is due (nil: no burst).
    private var refusedSinceLog = 0
    private var refusalLogDue: Double? = nil
    /// Accepts per wake-up: a flood of connects must not keep the loop from serving clients.
    static let acceptBatch = 32
    /// Bytes read from one client per wake-up: the loop serves the others (and the devices)
    /// before it comes back for the rest.
    static let readBudget = 16 * 1024
    static let maxLine = 64 * 1024
    static let refusalLogInterval = 1.0
    /// Carries out a client's command (`ClientProtocol` reads the line and writes the reply).
    var onCommand: (ClientCommand, SocketClient) -> ClientReply = { _, _ in .error("not ready") }

    public var clientCount: Int { clients.count }
    /// Who may control rather than only listen (set from the config, and again at each reload).
    var policy: ControlPolicy
    /// Called when a client connects or is dropped: what the clients can hear has changed
    /// (a subscription's change is the service's: ServiceCommands).
    var onAudienceChange: () -> Void = {}

    /// The gestures some client wants (a client that did not subscribe wants every one).
    var heardGestures: Set<GestureKind> {
        var heard = Set<GestureKind>()
        for client in clients.values {
            guard let names = client.subscriptions else { return Set(GestureKind.allCases) }
            for n in names { if let k = GestureKind(rawValue: n) { heard.insert(k) } }
        }
        return heard
    }
    /// Clients with broadcast events queued since the last `flushBroadcasts` (read after every
    /// wakeup).
    private var unsent: [SocketClient] = []

    init(listener: UnixListener, config: SocketConfig, log: Logger) throws {
        self.listener = listener
        self.maxClients = config.maxClients
        maxClientsPerUser = config.maxClientsPerUser
        linesPerSecond = config.linesPerSecond
        self.bufferLimit = config.clientBufferBytes
        self.log = log
        self.lineTimeout = config.lineTimeout
        idleTimeout = config.idleTimeout
        policy = ControlPolicy(group: config.controlGroup)
        timer = try DeadlineTimer()
    }

    /// The listener and the timer join the loop; each client joins it when accepted.
    func attach(to loop: EventLoop) throws {
        try loop.add(listener.fd) { [unowned self] _ in self.acceptAll() }
        try loop.add(timer.fd) { [unowned self] _ in
            self.timer.acknowledge()
            self.expire(now: MonotonicClock.now())
        }
        self.loop = loop
    }

    private func acceptAll() {
        for _ in 0..<Self.acceptBatch {
            guard let fd = listener.accept() else { break }
            if clients.count >= maxClients, let idle = longestSilent(now: MonotonicClock.now()) {
                _ = idle.enqueue(ClientReply.error("sent nothing for \(fmt(idleTimeout)) s and every slot is taken: send a line (subscribe) to keep one").line, limit: bufferLimit)
                _ = idle.flush()
                drop(idle, reason: "sent nothing for \(fmt(idleTimeout)) s; its slot went to a new client (max_clients \(maxClients))")
            }
            if clients.count >= maxClients {
                refuse(fd, "too many clients (limit \(maxClients))")
                continue
            }
            let peer = ControlPolicy.Peer(fd: fd)
            if let uid = peer?.uid, uid != 0, clients.values.count(where: { $0.peer?.uid == uid }) >= maxClientsPerUser {
                refuse(fd, "too many clients of uid \(uid) (limit \(maxClientsPerUser), max_clients_per_user)")
                continue
            }
            let client = SocketClient(fd: fd, id: nextID, peer: peer, linesPerSecond: linesPerSecond)
            nextID += 1
            do {
                try loop?.add(fd) { [unowned self] events in self.service(client, events) }
                clients[fd] = client
                log.info("client \(client.id) connected (\(client.peer.map { "uid \($0.uid), pid \($0.pid)" } ?? "peer unknown"); \(clients.count) connected)")
                onAudienceChange()
            } catch {
                close(fd)
            }
        }
    }

    /// A connection not taken: it is told why (one try, never blocking), closed and counted.
    private func refuse(_ fd: Int32, _ why: String) {
        let msg = ClientReply.error(why).line + "\n"
        _ = msg.withCString { Glibc.send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)) }
        close(fd)
        refused()
    }

    /// The client that has sent no line for the longest, at least `idleTimeout` since it connected.
    private func longestSilent(now: Double) -> SocketClient? {
        clients.values.filter { !$0.hasSpoken && $0.connectedAt + idleTimeout <= now }.min { $0.connectedAt < $1.connectedAt }
    }

    private func service(_ client: SocketClient, _ events: UInt32) {
        if events & EventLoop.writable != 0 { flush(client) }
        guard clients[client.fd] != nil else { return }
        if events & (EventLoop.readable | EventLoop.hangup) != 0 {
            switch client.readLines(maxLine: Self.maxLine, budget: Self.readBudget) {
            case .closed:
                drop(client, reason: "disconnected")
            case .lineTooLong:
                _ = client.enqueue(ClientReply.error("command line too long").line, limit: bufferLimit)
                _ = client.flush()
                drop(client, reason: "sent a line longer than 64 KiB")
            case .lines(let lines):
                if !client.hasPartialLine {
                    client.partialLineSince = nil
                } else if client.partialLineSince == nil || !lines.isEmpty {
                    client.partialLineSince = MonotonicClock.now()
                    rearm()
                }
                if !lines.isEmpty { client.hasSpoken = true }
                let now = MonotonicClock.now()
                for line in lines {
                    // Blank lines are answered by nothing, and count like any other.
                    guard client.allowance.take(now: now) else {
                        _ = client.enqueue(ClientReply.error("more than \(linesPerSecond) lines in a second (lines_per_second)").line, limit: bufferLimit)
                        _ = client.flush()
                        drop(client, reason: "sent more than \(linesPerSecond) lines in a second (lines_per_second)")
                        return
                    }
                    if line.allSatisfy(\.isWhitespace) { continue }
                    let reply = ClientProtocol.reply(to: line) { onCommand($0, client) }
                    guard send(reply, to: client) else { return }
                }
            }
        }
    }

    /// A refused client: the first of a burst is logged at once, the rest as one count per
    /// `refusalLogInterval` (2,000 quick connects are two log lines, not 2,000).
    private func refused() {
        if refusalLogDue == nil {
            log.warning("refusing clients: \(maxClients) already connected (max_clients)")
            refusalLogDue = MonotonicClock.now() + Self.refusalLogInterval
            rearm()
        } else {
            refusedSinceLog += 1
        }
    }

    /// Drops clients whose partial line is older than `lineTimeout`, and logs the refusal count.
    private func expire(now: Double) {
        if let due = refusalLogDue, due <= now {
            if refusedSinceLog > 0 {
                log.warning("refused \(refusedSinceLog) more client(s) in the last \(fmt(Self.refusalLogInterval)) s: \(maxClients) already connected (max_clients)")
                refusedSinceLog = 0
                refusalLogDue = now + Self.refusalLogInterval
            } else {
                refusalLogDue = nil
            }
        }
        for client in Array(clients.values) {
            if let since = client.partialLineSince, since + lineTimeout <= now {
                _ = client.enqueue(ClientReply.error("incomplete line: no newline within \(fmt(lineTimeout)) s").line, limit: bufferLimit)
                _ = client.flush()
                drop(client, reason: "sent an incomplete line and no newline within \(fmt(lineTimeout)) s")
            }
        }
        rearm()
    }

    private func rearm() {
        var t = refusalLogDue
        for c in clients.values { if let s = c.partialLineSince { t = min(t ?? .infinity, s + lineTimeout) } }
        timer.arm(t)
    }

    /// Sends one event to every client that subscribed to its gesture: queued, and written by
    /// `flushBroadcasts` once the loop has handled its wakeup, so the events of one wakeup (a
    /// frame's `cancelled` and the winner's event, or the frames a coalesced read took) go out
    /// in one send per client.
    /// Its JSON is encoded only when some client wants it (a swipe's line with its path is
    /// long; speed: docs/architecture.md).
    func take(_ g: inout OutgoingGesture) {
        // No client (a kiosk's usual case): not even the dictionary's iterator
        // (speed: docs/architecture.md).
        guard !clients.isEmpty else { return }
        let gesture = g.event.kind.rawValue
        guard clients.values.contains(where: { $0.wants(gesture) }) else { return }
        broadcast(g.json, gesture: gesture)
    }

    /// Queues a line for every client that wants `gesture`; nil: for every client (a mode
    /// change concerns all of them, whatever they subscribed to).
    public func broadcast(_ line: String, gesture: String? = nil) {
        for client in Array(clients.values) where gesture.map(client.wants) ?? true {
            guard queue(line, for: client) else { continue }
            if !client.hasUnsentBroadcast {
                client.hasUnsentBroadcast = true
                unsent.append(client)
            }
        }
    }

    /// Whether `flushBroadcasts` has anything to write: tested after every wakeup.
    var hasUnsentBroadcasts: Bool { !unsent.isEmpty }

    /// Writes what `broadcast` queued (the loop calls it after a wakeup that queued some).
    public func flushBroadcasts() {
        guard !unsent.isEmpty else { return }
        for client in unsent {
            client.hasUnsentBroadcast = false
            if clients[client.fd] === client { flush(client) }
        }
        unsent.removeAll(keepingCapacity: true)
    }

    /// Queues and tries to write; a client over its buffer limit is dropped. False if dropped.
    private func send(_ line: String, to client: SocketClient) -> Bool {
        queue(line, for: client) && flush(client)
    }

    /// Queues a line; false if the client was dropped. Over the limit with this wakeup's
    /// broadcasts still unwritten (a fast replay's whole recording is one wakeup), they are
    /// written first: only what the client has not taken counts against the limit.
    private func queue(_ line: String, for client: SocketClient) -> Bool {
        if client.enqueue(line, limit: bufferLimit) { return true }
        guard flush(client) else { return false }
        if client.enqueue(line, limit: bufferLimit) { return true }
        drop(client, reason: "too slow: more than \(bufferLimit) bytes queued")
        return false
    }

    @discardableResult
    private func flush(_ client: SocketClient) -> Bool {
        // epoll is told only when the wait for output changes, not on every event sent: a pan
        // sends one per frame, and an epoll_ctl each would cost a system call per frame.
        switch client.flush() {
        case .done:
            if client.waitsToWrite { loop?.modify(client.fd, events: EventLoop.readable) }
            client.waitsToWrite = false
            return true
        case .pending:
            if !client.waitsToWrite { loop?.modify(client.fd, events: EventLoop.readable | EventLoop.writable) }
            client.waitsToWrite = true
            return true
        case .failed:
            drop(client, reason: "write failed")
            return false
        }
    }

    private func drop(_ client: SocketClient, reason: String) {
        guard clients.removeValue(forKey: client.fd) != nil else { return }
        loop?.remove(client.fd)
        close(client.fd)
        let level: Logger.Level = reason == "disconnected" ? .info : .warning
        log.log(level: level, "client \(client.id) dropped: \(reason)")
        onAudienceChange()
    }

    /// Closes every client and the socket (removing its file when we created it).
    public func shutdown() {
        flushBroadcasts()
        for c in Array(clients.values) { drop(c, reason: "disconnected") }
        loop?.remove(listener.fd)
        loop = nil
        listener.shutdown()
    }
}
