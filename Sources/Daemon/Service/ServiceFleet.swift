import Logging

/// The service's link to the fleet's broker (`[mqtt]`): the broker's commands go to `perform`
/// as a socket client's do.
extension GestureService {
    /// Connects to the broker in the background and takes its commands in the loop.
    func startFleet(_ config: MQTTConfig) throws {
        let f = try Fleet(config: config, bindings: self.config.bindings, log: log)
        f.onCommand = { [unowned self] in self.perform($0, for: nil) }
        try f.attach(to: loop)
        fleet = f
        modes.fleet = f
        hearChanges()
        log.info("mqtt: publishing to \(f.link.prefix) via \(config.tls ? "mqtts" : "mqtt")://\(config.host):\(config.port)")
    }

    /// Home Assistant's view of the kiosk follows its devices, their recognizers and the config:
    /// called after each change of any of them.
    func announceToFleet() {
        fleet?.announce(devices.sessions.map { .init(label: $0.label, recognizers: $0.switches) },
                        kiosk: .init(modes: config.modes.names,
                                     quarantinesGhosts: devices.sessions.contains { $0.quarantinesGhosts },
                                     rejectsPalms: devices.sessions.contains { $0.rejectsPalms }))
        fleet?.mode(modes.current.name)
    }

    func stopFleet() {
        guard let f = fleet else { return }
        f.stop()
        fleet = nil
    }
}
