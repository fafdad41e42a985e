import Evdev
import Logging

extension GestureService {
    /// Loads the config again (SIGHUP); all or nothing: a bad file is logged and the running
    /// config stays. Bindings and every device's recognizers are rebuilt from the new one;
    /// `[socket]` (but for control_group) and `[mqtt]` connection settings take effect on restart.
    func reload() {
        notifier.reloading()
        defer { notifier.ready(status: "\(devices.sessions.count) devices") }
        let fresh: DaemonConfig
        do {
            fresh = try ConfigLoader().load(path: options.configPath)
        } catch {
            log.error("reload failed, keeping the running configuration:\n\(error)")
            return
        }
        // Who may control takes effect at once (it is asked at each request); the rest of [socket] on restart.
        hub.policy = ControlPolicy(group: fresh.socket.controlGroup)
        var socket = fresh.socket
        socket.controlGroup = config.socket.controlGroup
        if socket != config.socket { log.notice("[socket] changes take effect on restart") }
        fleet?.reload(fresh.mqtt, bindings: fresh.bindings, log: log)
        if fleet == nil && fresh.mqtt != nil { log.notice("[mqtt] added: takes effect on restart") }
        config = fresh
        for way in ModeOpenings.find(fresh) { log.warning("\(way)") }
        if let granted = ServiceSandbox.grantedToThisProcess() {
            for p in ServiceSandbox.problems(ServiceNeeds(config: fresh), granted: granted, probe: true) { log.error("\(p)") }
        }
        runner.setBindings(fresh.bindings, others: fresh.modes.sequences.map(\.binding))
        let now = MonotonicClock.now()
        devices.rebuild(config: fresh, now: now)
        hearChanges()
        announceToFleet()
        modes.reload(fresh.modes, now: now)
        log.info("configuration reloaded: \(fresh.bindings.count) bindings")
    }
}
