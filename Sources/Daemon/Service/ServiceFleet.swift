import Logging

/// The service's link to the fleet's broker (`[mqtt]`): the broker's commands are answered
/// through the client protocol, as a socket client's are, and the replies published.
extension GestureService {
    /// Connects to the broker in the background and takes its commands in the loop.
    func startFleet(_ config: MQTTConfig) throws {
        let f = try Fleet(config: config, bindings: self.config.bindings, log: log)
        try loop.add(f.link.commandFD) { [unowned self, unowned f] _ in
            let incoming = f.link.takeIncoming()
            f.readBack(incoming.retained)
            for line in incoming.commands { f.reply(ClientProtocol.reply(to: line) { self.perform($0, for: nil) }) }
        }
        try f.link.start()
        fleet = f
        sinks.append(f)
        hearChanges()
        log.info("mqtt: publishing to \(f.link.prefix) via \(config.tls ? "mqtts" : "mqtt")://\(config.host):\(config.port)")
    }

    /// Home Assistant's view of the kiosk follows its devices, their recognizers and the config:
    /// called after each change of any of them.
    func announceToFleet() {
        fleet?.announce(devices.sessions.map { .init(label: $0.label, recognizers: $0.switches) })
    }

    func stopFleet() {
        guard let f = fleet else { return }
        loop.remove(f.link.commandFD)
        f.link.stop()
        sinks.removeAll { $0 === f }
        fleet = nil
    }
}
