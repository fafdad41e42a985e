import CLinux
import CMosquitto
import GestureKit
import Glibc
import Evdev
import Logging

/// The connection to the fleet's broker (libmosquitto), kept off the daemon's thread.
///
/// Why threads and not the daemon's epoll loop: libmosquitto's connect resolves the broker's
/// name with a blocking getaddrinfo, mqtts adds a TLS handshake, and reconnecting replaces the
/// socket; none of that may ever delay a gesture, a socket client or a bound command. So the
/// network runs in a thread of its own (first connection with back-off, then libmosquitto's
/// `mosquitto_loop_forever`: keepalive, reconnects with exponential back-off), and a second
/// small thread hands queued messages to libmosquitto while connected. The daemon's
/// thread never calls libmosquitto while running: it only appends to a bounded queue under a
/// mutex and bumps an eventfd (`send`), and takes commands from the broker off a second
/// eventfd watched by its epoll loop (`commandFD`). The two queues are the whole contract.
///
/// Retained messages are state, not events: `retain` keeps the latest payload per topic apart
/// from the bounded queue (never dropped, sent before it), and every (re)connection sends them
/// all again, so a broker that lost them has them back.
final class MQTTLink: @unchecked Sendable {
    struct Message: Sendable {
        var topic: String
        var payload: String
        var retain = false
    }

    struct Counters {
        var connected = false
        var queued = 0
        var dropped = 0
        var published = 0
    }

    /// Messages handed to libmosquitto and not yet sent (QoS 0) or acknowledged (QoS 1): what
    /// the library itself holds is bounded too.
    static let window = 64
    /// Commands from the broker waiting for the daemon's loop; more are dropped (and logged).
    static let maxCommands = 64
    /// Retained topics read back from the broker (`readBackTopics`) waiting for the daemon's loop.
    static let maxReadBack = 4096
    /// The largest message taken from the broker (commands and the retained topics read back):
    /// a command is one short JSON line and a discovery config a few hundred bytes, so anything
    /// larger is refused before it is copied or queued. Ignored ones are logged at most once
    /// per `oversizeLogInterval`, with how many there were.
    static let maxPayload = 64 * 1024
    static let oversizeLogInterval = 60.0

    /// What the broker sent: commands, and the retained topics it holds under `readBackTopics`.
    struct Incoming {
        var commands: [String] = []
        var retained: [String] = []
    }

    private struct Shared: Sendable {
        var outbox: BoundedQueue<Message>
        var retained: [String: String] = [:]
        /// Retained topics not yet handed to libmosquitto on this connection, in order.
        var unsent: [String] = []
        var incoming = Incoming()
        var commandsDropped = 0
        /// Messages over `maxPayload` not yet logged, and when the last such log line was.
        var oversized = 0
        var oversizeLoggedAt: Double? = nil
        var connected = false
        var inflight = 0
        var published = 0
        var stopping = false
        var offlineMid: Int32? = nil
        var offlineSent = false
        var networkDone = false
    }

    let config: MQTTConfig
    let prefix: String
    let statusTopic: String
    /// Wildcards whose retained messages are read back on each connection (Home Assistant's
    /// discovery configs and switch states for this kiosk), so that stale ones can be cleared.
    let readBackTopics: [String]
    /// Readable (an eventfd) when what the broker sent waits in `takeIncoming`.
    let commandFD: Int32
    private let wakeFD: Int32
    private let shared: Locked<Shared>
    private let mosq: OpaquePointer
    private let log: Logger
    private var publisher = pthread_t()
    private var network = pthread_t()
    /// Ends the network thread's wait between first connection attempts.
    private let stopFD: Int32
    private var started = false

    init(config: MQTTConfig, hostname: String, log: Logger) throws {
        self.config = config
        self.log = log
        prefix = config.topic ?? "gestured/\(hostname)"
        statusTopic = prefix + "/status"
        readBackTopics = HomeAssistant.readBackTopics(config: config, prefix: prefix)
        shared = Locked(Shared(outbox: BoundedQueue(capacity: config.maxQueue)))
        mosquitto_lib_init()
        guard let m = mosquitto_new(config.clientID ?? Fleet.defaultClientID(hostname: hostname), true, nil) else { throw SystemError("mosquitto_new") }
        mosq = m
        commandFD = eventfd(0, Int32(EFD_NONBLOCK) | Int32(EFD_CLOEXEC))
        wakeFD = eventfd(0, Int32(EFD_CLOEXEC))
        stopFD = eventfd(0, Int32(EFD_NONBLOCK) | Int32(EFD_CLOEXEC))
        if commandFD < 0 || wakeFD < 0 || stopFD < 0 { throw SystemError("eventfd") }
        mosquitto_threaded_set(m, true)
        mosquitto_user_data_set(m, Borrowed(self).address)
        try check(mosquitto_will_set(m, statusTopic, 7, "offline", 1, true), "will")
        if let u = config.username { try check(mosquitto_username_pw_set(m, u, config.password), "username") }
        if config.tls { try check(mosquitto_tls_set(m, config.caFile, nil, config.certFile, config.keyFile, nil), "TLS (ca_file, cert_file, key_file)") }
        try check(mosquitto_reconnect_delay_set(m, 1, UInt32(config.reconnectMax), true), "reconnect delay")
        mosquitto_connect_callback_set(m) { _, obj, rc in MQTTLink.from(obj).connected(rc) }
        mosquitto_disconnect_callback_set(m) { _, obj, rc in MQTTLink.from(obj).disconnected(rc) }
        mosquitto_publish_callback_set(m) { _, obj, mid in MQTTLink.from(obj).published(mid) }
        mosquitto_message_callback_set(m) { _, obj, msg in
            guard let msg else { return }
            let link = MQTTLink.from(obj)
            guard Int(msg.pointee.payloadlen) <= MQTTLink.maxPayload else {
                link.oversized(String(cString: msg.pointee.topic), bytes: Int(msg.pointee.payloadlen))
                return
            }
            let bytes = UnsafeRawBufferPointer(start: msg.pointee.payload, count: Int(msg.pointee.payloadlen))
            link.received(String(cString: msg.pointee.topic), String(decoding: bytes, as: UTF8.self), retained: msg.pointee.retain)
        }
    }

    private static func from(_ obj: UnsafeMutableRawPointer?) -> MQTTLink { Borrowed.object(at: obj!) }

    private func check(_ rc: Int32, _ what: String) throws {
        if rc != MOSQ_ERR_SUCCESS.rawValue { throw SystemError("mqtt \(what): \(String(cString: mosquitto_strerror(rc)))", code: EINVAL) }
    }

    /// Starts connecting in the background: a broker that is down is retried with back-off.
    func start() throws {
        network = try startWorkerThread { [self] in networkLoop() }
        publisher = try startWorkerThread { [self] in publishLoop() }
        started = true
    }

    // MARK: the daemon's side (never blocks)

    /// Queues a message; the oldest queued one is dropped when the queue is full.
    func send(_ m: Message) {
        shared.withLock { $0.outbox.push(m) }
        wake()
    }

    /// Sets a retained topic's payload (empty: clears it on the broker); sent before the queue,
    /// and again on every connection. An unchanged payload is not sent again.
    func retain(_ topic: String, _ payload: String) {
        let changed = shared.withLock { s in
            guard s.retained[topic] != payload else { return false }
            s.retained[topic] = payload
            if !s.unsent.contains(topic) { s.unsent.append(topic) }
            return true
        }
        if changed { wake() }
    }

    /// What the broker sent since the last call: commands (one JSON command each) and retained topics read back.
    func takeIncoming() -> Incoming {
        var n: UInt64 = 0
        _ = read(commandFD, &n, 8)
        return shared.withLock { s in
            defer { s.incoming = Incoming() }
            return s.incoming
        }
    }

    var counters: Counters {
        shared.withLock { s in
            Counters(connected: s.connected, queued: s.outbox.count, dropped: s.outbox.dropped, published: s.published)
        }
    }

    /// Announces `offline` (when connected) and disconnects; waits at most `timeout` seconds.
    func stop(timeout: Double = 1) {
        guard started else { return }
        started = false
        shared.withLock { $0.stopping = true }
        wake()
        pthread_join(publisher, nil)
        if shared.withLock({ $0.connected }) {
            var mid: Int32 = 0
            shared.withLock { s in
                // Under the lock, so that the acknowledgement cannot come before we look for it.
                if mosquitto_publish(mosq, &mid, statusTopic, 7, "offline", 1, true) == MOSQ_ERR_SUCCESS.rawValue { s.offlineMid = mid }
            }
            let deadline = MonotonicClock.now() + timeout
            while !shared.withLock({ $0.offlineSent }) && MonotonicClock.now() < deadline { usleep(5_000) }
        }
        mosquitto_disconnect(mosq)
        var one: UInt64 = 1
        _ = write(stopFD, &one, 8)
        // The network thread may be inside a blocking connect to an unreachable broker: it is
        // not waited for past the timeout (the process is ending; the broker shows the will).
        let deadline = MonotonicClock.now() + timeout
        while !shared.withLock({ $0.networkDone }) && MonotonicClock.now() < deadline { usleep(5_000) }
        if shared.withLock({ $0.networkDone }) {
            pthread_join(network, nil)
            mosquitto_destroy(mosq)
            close(stopFD)
        } else {
            log.notice("mqtt: still connecting to \(config.host):\(config.port) at exit, not waited for")
        }
        close(wakeFD)
        close(commandFD)
    }

    // MARK: the network thread

    private func networkLoop() {
        defer { shared.withLock { $0.networkDone = true } }
        var delay = 1.0
        var reported = false
        while !shared.withLock({ $0.stopping }) {
            // Blocking (name lookup, TCP, TLS) — in this thread only.
            let rc = mosquitto_connect(mosq, config.host, Int32(config.port), config.keepalive)
            if rc == MOSQ_ERR_SUCCESS.rawValue {
                // Returns on disconnect; reconnects by itself meanwhile, with the same back-off.
                let end = mosquitto_loop_forever(mosq, -1, 1)
                if !shared.withLock({ $0.stopping }) { log.error("mqtt: link to \(config.host):\(config.port) ended: \(Self.describe(end)); restart gestured to retry") }
                return
            }
            if !reported {
                log.warning("mqtt: cannot reach \(config.host):\(config.port) (\(Self.describe(rc))); retrying with back-off up to \(fmt(config.reconnectMax)) s")
                reported = true
            }
            var p = pollfd(fd: stopFD, events: Int16(POLLIN), revents: 0)
            _ = poll(&p, 1, Int32(delay * 1000))
            delay = min(delay * 2, config.reconnectMax)
        }
    }

    private func wake() {
        var one: UInt64 = 1
        _ = write(wakeFD, &one, 8)
    }

    // MARK: the publisher thread

    private func publishLoop() {
        while true {
            var n: UInt64 = 0
            _ = read(wakeFD, &n, 8)
            while let m = nextToSend() {
                var mid: Int32 = 0
                let rc = mosquitto_publish(mosq, &mid, m.topic, Int32(m.payload.utf8.count), m.payload, config.qos, m.retain)
                shared.withLock { s in
                    if rc != MOSQ_ERR_SUCCESS.rawValue {
                        // Lost the connection meanwhile: keep the message for the next one (a
                        // retained one is sent again on every connection anyway).
                        s.inflight -= 1
                        if !m.retain { s.outbox.pushFront(m) }
                    } else if m.retain, m.payload.isEmpty, s.retained[m.topic] == "" {
                        // Cleared on the broker: nothing left to send again.
                        s.retained[m.topic] = nil
                    }
                }
                if rc != MOSQ_ERR_SUCCESS.rawValue { break }
            }
            if shared.withLock({ $0.stopping }) { return }
        }
    }

    private func nextToSend() -> Message? {
        shared.withLock { s in
            guard !s.stopping, s.connected, s.inflight < Self.window else { return nil }
            while !s.unsent.isEmpty {
                let topic = s.unsent.removeFirst()
                guard let payload = s.retained[topic] else { continue }
                s.inflight += 1
                return Message(topic: topic, payload: payload, retain: true)
            }
            guard let m = s.outbox.popFirst() else { return nil }
            s.inflight += 1
            return m
        }
    }

    // MARK: libmosquitto's thread (callbacks)

    private func connected(_ rc: Int32) {
        guard rc == 0 else {
            log.warning("mqtt: \(config.host):\(config.port) refused the connection: \(String(cString: mosquitto_connack_string(rc)))")
            return
        }
        // Commands are heard only when the operator turned them on ([mqtt] commands).
        for topic in commandTopics + readBackTopics { mosquitto_subscribe(mosq, nil, topic, 1) }
        mosquitto_publish(mosq, nil, statusTopic, 6, "online", 1, true)
        let backlog = shared.withLock { s in
            s.connected = true
            // What the library held for the old connection is gone or will be resent by it.
            s.inflight = 0
            s.unsent = s.retained.keys.sorted()
            return s.outbox.count
        }
        log.info("mqtt: connected to \(config.host):\(config.port) as \(prefix)\(backlog > 0 ? ", sending \(backlog) queued" : "")")
        wake()
    }

    private func disconnected(_ rc: Int32) {
        let was = shared.withLock { s in
            defer { s.connected = false }
            return s.connected && !s.stopping
        }
        if was { log.warning("mqtt: lost \(config.host):\(config.port) (\(Self.describe(rc))); queueing up to \(config.maxQueue) messages, reconnecting") }
    }

    private func published(_ mid: Int32) {
        shared.withLock { s in
            s.inflight = max(0, s.inflight - 1)
            s.published += 1
            if mid == s.offlineMid { s.offlineSent = true }
        }
        wake()
    }

    /// The topics commands come on; none unless `[mqtt] commands = true`.
    private var commandTopics: [String] { config.commands ? [prefix + "/command", config.fleetTopic] : [] }

    private func received(_ topic: String, _ payload: String, retained: Bool) {
        /// nil: taken; otherwise why it was dropped.
        let dropped: String? = shared.withLock { s in
            if commandTopics.contains(topic) {
                // A retained command is the broker's memory of an old one, handed to every
                // (re)connection: never obeyed.
                guard !retained else { return "a retained command on \(topic) ignored (commands are obeyed only as they are sent)" }
                guard s.incoming.commands.count < Self.maxCommands else {
                    s.commandsDropped += 1
                    return "more than \(Self.maxCommands) commands waiting, one dropped"
                }
                s.incoming.commands.append(payload)
                return nil
            }
            // Our own publications come back too (not retained): only the broker's stored
            // state, read back at subscription, is news.
            guard retained, !payload.isEmpty else { return "" }
            guard s.incoming.retained.count < Self.maxReadBack else {
                return "more than \(Self.maxReadBack) retained topics read back at once, \(Printable.escaping(topic)) not checked"
            }
            s.incoming.retained.append(topic)
            return nil
        }
        switch dropped {
        case nil:
            var one: UInt64 = 1
            _ = write(commandFD, &one, 8)
        case ""?: break
        case let why?: log.warning("mqtt: \(why)")
        }
    }

    /// A message over `maxPayload`: ignored; logged at most once per `oversizeLogInterval`, so
    /// that a flood of them costs the journal a line a minute.
    private func oversized(_ topic: String, bytes: Int) {
        let now = MonotonicClock.now()
        let count: Int? = shared.withLock { s in
            s.oversized += 1
            if let last = s.oversizeLoggedAt, now - last < Self.oversizeLogInterval { return nil }
            defer { (s.oversized, s.oversizeLoggedAt) = (0, now) }
            return s.oversized
        }
        guard let count else { return }
        let since = count > 1 ? "; \(count) ignored since the last such line" : ""
        log.warning("mqtt: a message of \(bytes) bytes on \(Printable.escaping(topic)) ignored (at most \(Self.maxPayload) bytes are taken)\(since)")
    }

    private static func describe(_ rc: Int32) -> String {
        rc == MOSQ_ERR_ERRNO.rawValue ? Errno.current.description : String(cString: mosquitto_strerror(rc))
    }
}
