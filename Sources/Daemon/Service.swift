import Evdev
import GestureKit
import Glibc
import Logging

/// The daemon: wires the loop, the socket hub, the action runner and the device sources
/// together, and owns the current configuration (replaced whole on SIGHUP).
public final class GestureService {
    private let options: ServiceOptions
    var log: Logger
    var config: DaemonConfig
    let loop: EventLoop
    private let timer: DeadlineTimer
    private let signals: SignalChannel
    private let notifier: ServiceNotifier
    private var hub: SocketHub!
    private let runner: ActionRunner
    var sources: [DeviceSource] = []
    var liveMonitor: DeviceMonitor?
    private var recordings: [RecordingSource] = []
    private let environment: [String: String]
    /// The link to the fleet's broker, when `[mqtt]` asks for one.
    var fleet: Fleet?

    public init(options: ServiceOptions, log: Logger) throws {
        self.options = options
        self.log = log
        environment = ProcessEnvironment.current
        config = try ConfigLoader().load(path: options.configPath)
        signals = try SignalChannel()
        loop = try EventLoop()
        timer = try DeadlineTimer()
        notifier = ServiceNotifier(environment: environment)
        runner = ActionRunner(log: log)
        runner.setBindings(config.bindings)
    }

    /// The socket path: --socket, then the config, then the default for who we run as.
    public static func defaultSocketPath(environment: [String: String]) -> String {
        if getuid() != 0, let dir = environment["XDG_RUNTIME_DIR"], !dir.isEmpty { return dir + "/gestured.sock" }
        return "/run/gestured/gestured.sock"
    }

    /// Runs until SIGTERM/SIGINT (or the end of replay with --exit-after-replay). Returns the exit status.
    public func run() throws -> Int32 {
        let listener: UnixListener
        if let fd = SocketActivation.listeningSocket(environment: environment) {
            listener = UnixListener(adopting: fd)
            log.info("using the socket passed by systemd")
        } else {
            let path = options.socketPath ?? config.socket.path ?? Self.defaultSocketPath(environment: environment)
            let dir = FileSystem.directory(of: path)
            if !dir.isEmpty { FileSystem.createDirectories(dir) }
            listener = try UnixListener(path: path, mode: config.socket.mode, group: config.socket.group)
            log.info("listening on \(path) (mode \(String(config.socket.mode, radix: 8)))")
        }
        hub = try SocketHub(loop: loop, listener: listener, config: config.socket, log: log)
        hub.onCommand = { [unowned self] cmd, client in self.answer(cmd, client) }
        if let m = config.mqtt { try startFleet(m) }

        try loop.add(signals.fd) { [unowned self] _ in self.handleSignals() }
        try loop.add(timer.fd) { [unowned self] _ in
            self.timer.acknowledge()
            self.wakeDue()
        }
        let now = MonotonicClock.now()
        for path in options.replays {
            let recording: Recording
            do { recording = try Recording.load(path: path) } catch {
                hub.shutdown()
                throw error
            }
            let source = RecordingSource(recording: recording, config: config, fast: options.fast, log: log)
            if !options.holdReplay { source.start(now: now) }
            recordings.append(source)
            sources.append(source)
            fleet?.device(source.label, added: true)
        }
        if options.liveDevices { startLiveDevices() }

        notifier.ready(status: "\(sources.count) devices")
        log.info("gestured \(DaemonInfo.version) ready: \(sources.count) devices, \(config.bindings.count) bindings")
        StartupPages.release()
        loop.run { [unowned self] in self.rearm() }

        notifier.stopping()
        let t = MonotonicClock.now()
        for s in sources { s.cancel(now: t) { self.deliver($0, from: s) } }
        runner.outputs.removeAll()
        hub.shutdown()
        runner.stopAll()
        stopFleet()
        log.info("stopped")
        return 0
    }


    // MARK: events

    func deliver(_ e: GestureEvent, from source: DeviceSource) {
        let label = source.label
        hub.broadcast(e, device: label)
        runner.handle(e, device: label, now: MonotonicClock.now())
        fleet?.gesture(e, device: label)
    }

    private func wakeDue() {
        let now = MonotonicClock.now()
        for s in sources {
            if let w = s.wakeTime, w <= now { s.wake(now: now) { self.deliver($0, from: s) } }
        }
        runner.expire(now: now)
        if options.exitAfterReplay, !recordings.isEmpty, recordings.allSatisfy({ !$0.isPlaying }), runner.runningCount == 0 {
            log.info("replay finished, exiting (--exit-after-replay)")
            loop.stop()
        }
    }

    /// One timer for everything: the earliest source wake-up or command timeout.
    private func rearm() {
        var t = runner.deadline
        for s in sources { if let w = s.wakeTime { t = min(t ?? w, w) } }
        timer.arm(t)
    }

    private func handleSignals() {
        for sig in signals.drain() {
            switch sig {
            case SIGTERM, SIGINT:
                log.info("signal \(sig == SIGTERM ? "SIGTERM" : "SIGINT"): stopping")
                loop.stop()
            case SIGHUP:
                reload()
            case SIGCHLD:
                runner.reap(now: MonotonicClock.now())
                wakeDue()
            default:
                break
            }
        }
    }

    /// Loads the config again; all or nothing: a bad file is logged and the running config stays.
    private func reload() {
        notifier.reloading()
        defer { notifier.ready(status: "\(sources.count) devices") }
        let fresh: DaemonConfig
        do {
            fresh = try ConfigLoader().load(path: options.configPath)
        } catch {
            log.error("reload failed, keeping the running configuration:\n\(error)")
            return
        }
        if fresh.socket != config.socket { log.notice("[socket] changes take effect on restart") }
        fleet?.reload(fresh.mqtt, log: log)
        if fleet == nil && fresh.mqtt != nil { log.notice("[mqtt] added: takes effect on restart") }
        config = fresh
        runner.setBindings(fresh.bindings)
        let now = MonotonicClock.now()
        for s in sources { s.rebuild(config: fresh, now: now) { self.deliver($0, from: s) } }
        log.info("configuration reloaded: \(fresh.bindings.count) bindings")
    }

    // MARK: client commands

    /// A command line from the broker, answered as the socket answers it.
    func answer(line: String, client: SocketClient?) -> String {
        ClientCommand.reply(to: line) { self.answer($0, client) }
    }

    private func answer(_ cmd: ClientCommand, _ client: SocketClient?) -> String {
        var w = JSONWriter()
        w.beginObject()
        switch cmd {
        case .subscribe(let names):
            if let names, let bad = names.first(where: { GestureKind(rawValue: $0) == nil }) {
                return errorLine("unknown gesture \"\(bad)\" (known: \(GestureKind.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            guard let client else { return errorLine("subscribe is for socket clients; over MQTT, subscribe to the gesture topics") }
            client.subscriptions = names.map(Set.init)
            w.key("ok"); w.bool(true)
            w.key("subscribed")
            w.beginArray()
            for n in (names ?? ["*"]) { w.string(n) }
            w.endArray()
        case .setEnabled(let name, let enabled, let device):
            let matched = sources.filter { s in device.map { Glob.matches($0, s.label.name) || Glob.matches($0, s.label.id) } ?? true }
            if matched.isEmpty { return errorLine(device.map { "no device matches \"\($0)\"" } ?? "no devices") }
            var changed: [DeviceSource] = []
            let now = MonotonicClock.now()
            for s in matched where s.pipeline.arena.recognizers.contains(where: { $0.name == name }) {
                // Switched off mid-gesture, the recognizer is cancelled (a winner says so); the rest go on.
                s.pipeline.arena.setEnabled(name, enabled, time: now) { self.deliver($0, from: s) }
                if enabled { s.disabled.remove(name) } else { s.disabled.insert(name) }
                changed.append(s)
            }
            if changed.isEmpty { return errorLine("no recognizer \"\(name)\" runs on \(device.map { "\"\($0)\"" } ?? "any device")") }
            w.key("ok"); w.bool(true)
            w.key("recognizer"); w.string(name)
            w.key("enabled"); w.bool(enabled)
            w.key("devices")
            w.beginArray()
            for s in changed { w.string(s.label.name) }
            w.endArray()
        case .status:
            w.key("status")
            w.beginObject()
            w.key("version"); w.string(DaemonInfo.version)
            w.key("config"); w.string(config.file)
            w.key("clients"); w.int(hub.clientCount)
            w.key("bindings"); w.int(config.bindings.count)
            w.key("running_commands"); w.int(runner.runningCount)
            w.key("replaying"); w.int(recordings.filter(\.isPlaying).count)
            w.key("virtual_devices")
            w.beginArray()
            for (role, d) in runner.outputs.present {
                w.beginObject()
                w.key("role"); w.string(role.rawValue)
                w.key("name"); w.string(d.name)
                w.key("devnode"); w.string(d.devnode)
                w.key("syspath"); w.string(d.syspath)
                w.endObject()
            }
            w.endArray()
            if let f = fleet { w.key("mqtt"); f.writeStatus(&w) }
            w.key("devices")
            w.beginArray()
            for s in sources {
                w.beginObject()
                w.key("name"); w.string(s.label.name)
                w.key("id"); w.string(s.label.id)
                let clone = (s as? LiveDeviceSource)?.passthrough?.clone
                w.key("passthrough"); w.bool(clone != nil)
                if let clone { w.key("clone"); w.string(clone.devnode) }
                w.key("recognizers")
                w.beginArray()
                for r in s.pipeline.arena.recognizers {
                    w.beginObject()
                    w.key("name"); w.string(r.name)
                    w.key("enabled"); w.bool(s.pipeline.arena.isEnabled(r.name))
                    w.endObject()
                }
                w.endArray()
                w.endObject()
            }
            w.endArray()
            w.endObject()
        case .replay:
            guard !recordings.isEmpty else { return errorLine("no recordings: start gestured with --replay FILE") }
            let now = MonotonicClock.now()
            for r in recordings {
                if r.isPlaying { r.cancel(now: now) { self.deliver($0, from: r) } }
                r.start(now: now)
            }
            w.key("ok"); w.bool(true)
            w.key("replaying"); w.int(recordings.count)
        }
        w.endObject()
        return w.text
    }
}
