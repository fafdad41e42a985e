import Evdev
import GestureKit
import Glibc
import Logging

/// The daemon: wires the loop, the devices (DeviceRegistry), the modes (ModeControl) and the
/// sinks their gestures go to (socket clients, bound commands, sequences, the fleet), and owns
/// the current configuration (replaced whole on SIGHUP). What it does apart from starting,
/// delivering and stopping has its own file: a reload (ServiceReload), the clients' commands
/// (ServiceCommands), the fleet (ServiceFleet).
public final class GestureService {
    let options: ServiceOptions
    var log: Logger
    var config: DaemonConfig
    let loop: EventLoop
    private let timer: DeadlineTimer
    private let signals: SignalChannel
    let notifier: ServiceNotifier
    let hub: SocketHub
    let runner: ActionRunner
    let devices: DeviceRegistry
    let modes: ModeControl
    /// The link to the fleet's broker, when `[mqtt]` asks for one.
    var fleet: Fleet?
    /// systemd's watchdog, when the unit has one (WatchdogSec=).
    private var watchdog: Watchdog?

    public init(options: ServiceOptions, log: Logger) throws {
        self.options = options
        self.log = log
        let environment = ProcessEnvironment.current
        config = try ConfigLoader().load(path: options.configPath)
        signals = try SignalChannel()
        loop = try EventLoop()
        timer = try DeadlineTimer()
        notifier = ServiceNotifier(environment: environment)
        runner = try ActionRunner(log: log)
        devices = DeviceRegistry(loop: loop, config: config, log: log)
        runner.setBindings(config.bindings, others: config.modes.sequences.map(\.binding))
        let listener = try UnixListener.forService(path: options.socketPath, config: config.socket, environment: environment, log: log)
        hub = try SocketHub(listener: listener, config: config.socket, log: log)
        modes = ModeControl(config.modes, runner: runner, devices: devices, hub: hub, log: log, now: MonotonicClock.now(),
                            record: ModeRecord(environment: environment), backOffRecord: SequenceBackOffRecord(environment: environment))
        devices.delegate = self
        devices.gate = Borrowed<TouchGate>(modes)
        for way in ModeOpenings.find(config) { log.warning("\(way)") }
    }

    /// Runs until SIGTERM/SIGINT (or the end of replay with --exit-after-replay). Returns the exit status.
    public func run() throws -> Int32 {
        hub.onCommand = { [unowned self] command, client in self.perform(command, for: client) }
        hub.onAudienceChange = { [unowned self] in self.hearChanges() }
        // The service outlives its loop, which runs only within this call: the loop's handlers
        // borrow it (Borrowed).
        let me = Borrowed(self)
        runner.processes.collected = { me.with { $0.wakeDue() } }
        runner.keysTyped = { device, seconds in me.with { $0.record(.keys, device: device, seconds: seconds) } }
        runner.processes.commandStarted = { device, seconds in me.with { $0.record(.command, device: device, seconds: seconds) } }
        if let m = config.mqtt { try startFleet(m) }

        try loop.add(signals.fd) { _ in me.with { $0.handleSignals() } }
        for source: LoopSource in [hub, runner.processes] { try source.attach(to: loop) }
        if let w = try Watchdog(environment: ProcessEnvironment.current, notifier: notifier) {
            try w.attach(to: loop)
            watchdog = w
        }
        try loop.add(timer.fd) { _ in me.with { $0.timerFired() } }
        do {
            try devices.openRecordings(options.replays, fast: options.fast, hold: options.holdReplay, now: MonotonicClock.now())
        } catch {
            hub.shutdown()
            throw error
        }
        if options.liveDevices { devices.startLive() }
        announceToFleet()

        notifier.ready(status: "\(devices.sessions.count) devices")
        log.info("gestured \(DaemonInfo.version) ready: \(devices.sessions.count) devices, \(config.bindings.count) bindings")
        StartupPages.release()
        // After the release, which would let go of the warmed pages too; a device opened
        // later (hotplug) is warmed as it opens.
        let warm = HotPathWarmUp.warm(devices.sessions.map(\.info), config: config)
        devices.warmsOnOpen = true
        log.debug("hot path warmed for \(devices.sessions.count) devices in \(fmt(warm * 1000)) ms")
        loop.run { afterWakeup() }

        notifier.stopping()
        devices.cancelAll(now: MonotonicClock.now())
        devices.keeper.removeAll()
        runner.outputs.removeAll()
        hub.shutdown()
        runner.processes.stopAll()
        stopFleet()
        log.info("stopped")
        return 0
    }

    // MARK: events

    /// Each gesture to each sink (GestureSink), in order: the socket clients, the bound commands,
    /// the secret sequences, the fleet. Its JSON is encoded once, by the first sink that wants
    /// it. The events and the label are read in place, not copied for each, and the sinks are
    /// the service's own, not an array of them, which retained each for each event (speed:
    /// docs/architecture.md).
    func deliver(_ events: [GestureEvent], from session: DeviceSession) {
        withUnsafePointer(to: session.label) { label in
            events.withUnsafeBufferPointer { events in
                for i in events.indices {
                    var g = OutgoingGesture(events.baseAddress! + i, device: label)
                    // A secret sequence's step goes to the bindings and the sequences only.
                    let secret = modes.isSecret(g)
                    if !secret { hub.take(&g) }
                    runner.take(&g)
                    modes.take(&g)
                    if !secret { fleet?.take(&g) }
                }
                // One clock read for the wakeup's gestures, after every sink took them; a
                // recording's times are not the clock's.
                guard session.isLive else { return }
                let now = MonotonicClock.now()
                for i in events.indices { session.record(.delivered, seconds: now - events[i].time) }
            }
        }
    }

    /// A key chord or command's latency, to its device's record (if it is still open and live).
    private func record(_ path: DeviceLatency.Path, device: DeviceLabel, seconds: Double) {
        guard let s = devices.sessions.first(where: { $0.isLive && $0.label.id == device.id && $0.label.name == device.name }) else { return }
        s.record(path, seconds: seconds)
    }

    /// The earliest deadline of all the one timer is armed for (TimedSource), read after every
    /// wakeup: each source keeps its own, and they are read directly, not through the protocol
    /// (a closure over the three as `TimedSource` retained each; speed: docs/architecture.md).
    private var deadline: Double? {
        var t = devices.deadline ?? .infinity
        if let d = devices.keeper.deadline, d < t { t = d }
        if let d = runner.processes.deadline, d < t { t = d }
        if let d = runner.outputs.deadline, d < t { t = d }
        if let d = modes.deadline, d < t { t = d }
        if let d = fleet?.deadline, d < t { t = d }
        return t < .infinity ? t : nil
    }

    private func timerFired() {
        timer.acknowledge()
        wakeDue()
    }

    /// Wakes the timed sources whose time has come, in this order.
    private func wakeDue() {
        let now = MonotonicClock.now()
        if let d = devices.deadline, d <= now { devices.due(now: now) }
        if let d = devices.keeper.deadline, d <= now { devices.keeper.due(now: now) }
        if let d = runner.processes.deadline, d <= now { runner.processes.due(now: now) }
        if let d = runner.outputs.deadline, d <= now { runner.outputs.due(now: now) }
        if let d = modes.deadline, d <= now { modes.due(now: now) }
        if let d = fleet?.deadline, d <= now { fleet?.due(now: now) }
        if options.exitAfterReplay { stopIfReplayed() }
    }

    /// Out of line: inlined, its logging gave every wakeDue a larger frame
    /// (speed: docs/architecture.md).
    @inline(never)
    private func stopIfReplayed() {
        guard !devices.recordings.isEmpty, devices.recordings.allSatisfy({ !$0.isPlaying }),
              runner.processes.runningCount == 0 else { return }
        log.info("replay finished, exiting (--exit-after-replay)")
        loop.stop()
    }

    /// After each wakeup: the mode switches it asked for, then the events it produced go out to
    /// clients, one write each, and the one timer is armed for the earliest deadline.
    private func afterWakeup() {
        if modes.hasPending { modes.afterWakeup() }
        if hub.hasUnsentBroadcasts { hub.flushBroadcasts() }
        timer.arm(deadline)
    }

    private func handleSignals() {
        signals.drain { sig in
            switch sig {
            case SIGTERM, SIGINT:
                log.info("signal \(sig == SIGTERM ? "SIGTERM" : "SIGINT"): stopping")
                loop.stop()
            case SIGHUP:
                reload()
            case SIGCHLD:
                runner.processes.reap(now: MonotonicClock.now())
                wakeDue()
            default:
                break
            }
        }
    }
}
