import Evdev
import GestureKit
import Logging

/// What each client command does to the service; the protocol (`ClientProtocol`) reads the
/// line and writes the reply.
extension GestureService {
    /// `client` is nil for a command from the fleet's broker.
    func perform(_ command: ClientCommand, for client: SocketClient?) -> ClientReply {
        if let client, command.controls, let refusal = hub.policy.refusal(client.peer) {
            log.warning("client \(client.id): \(refusal)")
            return .error(refusal)
        }
        switch command {
        case .subscribe(let names):
            if let names, let bad = names.first(where: { GestureKind(rawValue: $0) == nil }) {
                return .error("unknown gesture \"\(bad)\" (known: \(GestureKind.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            guard let client else { return .error("subscribe is for socket clients; over MQTT, subscribe to the gesture topics") }
            client.subscriptions = names.map(Set.init)
            hearChanges()
            return .subscribed(names)
        case .setEnabled(let name, let enabled, let device):
            return setEnabled(name, enabled, device: device)
        case .status:
            return .status(status)
        case .replay:
            let replays = devices.sessions.filter { $0.player != nil }
            guard !replays.isEmpty else { return .error("no recordings: start gestured with --replay FILE") }
            let now = MonotonicClock.now()
            for r in replays { devices.restart(r, now: now) }
            return .replaying(replays.count)
        case .mode(let name):
            guard modes.switchMode(to: name, reason: client == nil ? "mqtt" : "socket") else { return .error(modes.unknownMode(name)) }
            return .mode(name)
        }
    }

    /// Switches a recognizer on or off on the devices `device` (a glob on name or id) matches,
    /// all when nil; remembered across reloads.
    private func setEnabled(_ name: String, _ enabled: Bool, device: String?) -> ClientReply {
        let matched = devices.sessions.filter { s in device.map { Glob.matches($0, s.label.name) || Glob.matches($0, s.label.id) } ?? true }
        if matched.isEmpty { return .error(device.map { "no device matches \"\($0)\"" } ?? "no devices") }
        var changed: [DeviceSession] = []
        let now = MonotonicClock.now()
        for s in matched where s.pipeline.arena.recognizers.contains(where: { $0.name == name }) {
            // Switched off mid-gesture, the recognizer is cancelled (a winner says so); the rest go
            // on. Enabled, it runs when the mode runs it.
            if enabled { s.disabled.remove(name) } else { s.disabled.insert(name) }
            modes.apply(to: s, now: now)
            changed.append(s)
        }
        if changed.isEmpty { return .error("no recognizer \"\(name)\" runs on \(device.map { "\"\($0)\"" } ?? "any device")") }
        announceToFleet()
        return .switched(recognizer: name, enabled: enabled, devices: changed.map(\.label.name))
    }

    private var status: ServiceStatus {
        ServiceStatus(
            version: DaemonInfo.version,
            config: config.file,
            mode: modes.current.name,
            clients: hub.clientCount,
            bindings: config.bindings.count,
            runningCommands: runner.processes.runningCount,
            replaying: devices.recordings.filter(\.isPlaying).count,
            virtualDevices: runner.outputs.present,
            fleet: fleet.map { ($0.link.prefix, $0.link.counters) },
            devices: devices.sessions.map { s in
                .init(name: s.label.name, id: s.label.id, clone: s.passthrough?.clone.devnode, recognizers: s.recognizers,
                      conditioning: s.conditioning, latency: s.isLive ? s.latency : nil)
            },
            keptClones: devices.keeper.waiting(now: MonotonicClock.now()))
    }
}
