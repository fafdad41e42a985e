import GestureKit
import Glibc
import Logging

/// What the service tells the fleet's broker, and where: gestures that pass the `[mqtt]`
/// filters to `<prefix>/gesture/<name>`, devices coming and going to `<prefix>/device`,
/// mode changes to `<prefix>/mode`, command replies to `<prefix>/reply` (`<prefix>/status` is
/// the link's own), and with `homeassistant = true` the kiosk's Home Assistant discovery and
/// events. Lives on the daemon's thread; everything it sends goes through the link's bounded
/// queue, the retained discovery through the link's retained state. The broker's commands are
/// answered through the client protocol, as a socket client's are, and the replies published;
/// every command is carried out only with `[mqtt] commands = true`. Whether the kiosk is in
/// use (KioskUsage) is retained at `<prefix>/touch/…`, the mode at `<prefix>/mode/state`, the
/// ghosts and palms kept from the app (ConditioningCount, the kiosk's since the daemon started)
/// at `<prefix>/touch/ghosts` and `<prefix>/touch/palms`, on change.
final class Fleet: GestureSink, LoopSource, TimedSource {
    let link: MQTTLink
    private(set) var filters: [GestureFilter]
    let homeAssistant: HomeAssistant
    /// Home Assistant's discovery is on; the gestures its device triggers are for.
    private(set) var announcing: Bool
    private(set) var triggers: [GestureKind]
    /// The retained topics this kiosk has announced, and their payloads.
    private var announced: [String: String] = [:]
    /// Carries out a command from the broker (the service's `perform`, with no client).
    var onCommand: (ClientCommand) -> ClientReply = { _ in .error("not ready") }
    private var loop: EventLoop?
    private var usage: KioskUsage
    private var conditioning = ConditioningCount()
    /// `[mqtt] commands`: whether the broker's commands are carried out (follows a reload).
    private var commands: Bool

    init(config: MQTTConfig, bindings: [Binding], log: Logger) throws {
        link = try MQTTLink(config: config, hostname: Self.hostname(), log: log)
        homeAssistant = HomeAssistant(config: config, prefix: link.prefix)
        (filters, announcing, triggers) = Self.published(config, bindings: bindings)
        usage = KioskUsage(window: config.inUseMinutes * 60)
        commands = config.commands
    }

    /// The `[[mqtt.publish]]` filters (none given: every gesture, in its default phases). With
    /// Home Assistant, bound gestures are published too — but not their `changed` events, a
    /// stream per touch frame that a stepped binding takes and a broker should not — and each
    /// gesture bound or published explicitly is a device trigger.
    static func published(_ config: MQTTConfig, bindings: [Binding]) -> ([GestureFilter], Bool, [GestureKind]) {
        var filters = config.publish.isEmpty ? GestureKind.allCases.map { GestureFilter(gesture: $0) } : config.publish
        guard config.homeAssistant else { return (filters, false, []) }
        let bound = bindings.compactMap { b -> GestureFilter? in
            var f = b.filter
            f.phases.removeAll { $0 == .changed }
            return f.phases.isEmpty ? nil : f
        }
        filters += bound
        let named = Set((config.publish + bound).map(\.gesture))
        return (filters, true, GestureKind.allCases.filter(named.contains))
    }

    /// The link's commands are taken in the loop; the link connects in the background.
    func attach(to loop: EventLoop) throws {
        try loop.add(link.commandFD) { [unowned self] _ in
            let incoming = self.link.takeIncoming()
            self.readBack(incoming.retained)
            for line in incoming.commands { self.reply(self.answer(line)) }
        }
        self.loop = loop
        try link.start()
        link.retain(homeAssistant.inUseTopic, "OFF")
    }

    /// A command from the broker, carried out only while remote commands are allowed: the link
    /// subscribes to the command topics only with `commands = true` at connection, and a reload
    /// that turns them off refuses what still arrives until the next restart.
    private func answer(_ line: String) -> String {
        guard commands else {
            return ClientReply.error("refused: this kiosk takes no commands from the broker ([mqtt] commands = false)").line
        }
        return ClientProtocol.reply(to: line, onCommand)
    }

    func stop() {
        loop?.remove(link.commandFD)
        loop = nil
        link.stop()
    }

    /// A reload: new filters and Home Assistant on or off apply at once; the connection settings on restart.
    func reload(_ config: MQTTConfig?, bindings: [Binding], log: Logger) {
        guard let config else { log.notice("[mqtt] removed: takes effect on restart"); return }
        var same = config
        same.publish = link.config.publish
        same.homeAssistant = link.config.homeAssistant
        same.commands = link.config.commands
        same.inUseMinutes = link.config.inUseMinutes
        if same != link.config { log.notice("[mqtt] connection changes take effect on restart") }
        if config.commands, !link.config.commands {
            log.notice("[mqtt] commands = true takes effect on restart (the command topics are subscribed when connecting)")
        }
        (filters, announcing, triggers) = Self.published(config, bindings: bindings)
        commands = config.commands
        usage.window = config.inUseMinutes * 60
    }

    func take(_ g: inout OutgoingGesture) {
        let e = g.event, device = g.device
        guard filters.contains(where: { $0.matches(e, device: device) }) else { return }
        let json = g.json
        link.send(.init(topic: "\(link.prefix)/gesture/\(e.kind.rawValue)", payload: json))
        if announcing { link.send(.init(topic: homeAssistant.eventTopic(device), payload: HomeAssistant.event(e.kind, json: json))) }
    }

    /// Brings the broker's retained discovery up to date with the kiosk's devices, recognizers
    /// and config: what changed is announced, what is gone cleared (an empty retained payload).
    func announce(_ devices: [HomeAssistant.TouchDevice], kiosk: HomeAssistant.Kiosk) {
        var wanted = announcing ? homeAssistant.announcements(devices: devices, triggers: triggers, kiosk: kiosk) : [:]
        // The counts, with or without discovery, while some device keeps ghosts or palms from
        // the app (0 until one is counted); a count whose feature is turned off is cleared.
        wanted.merge(homeAssistant.counts(conditioning, kiosk: kiosk)) { $1 }
        for (topic, payload) in wanted.sorted(by: { $0.key < $1.key }) where announced[topic] != payload { link.retain(topic, payload) }
        for topic in announced.keys.sorted() where wanted[topic] == nil { link.retain(topic, "") }
        announced = wanted
    }

    /// Retained topics the broker holds for this kiosk (read back on connecting): those this
    /// run does not announce are an earlier run's, and cleared.
    func readBack(_ topics: [String]) {
        for topic in topics where announced[topic] == nil { link.retain(topic, "") }
    }

    func device(_ label: DeviceLabel, added: Bool) {
        var w = JSONWriter()
        w.beginObject()
        w.key("event"); w.string(added ? "added" : "removed")
        w.key("device"); w.string(label.name)
        w.key("device_id"); w.string(label.id)
        w.endObject()
        link.send(.init(topic: link.prefix + "/device", payload: w.text))
    }

    /// A change of the kiosk's mode (the line socket clients get) on `<prefix>/mode`, and the
    /// mode retained at `<prefix>/mode/state`.
    func mode(_ line: String, name: String) {
        link.send(.init(topic: link.prefix + "/mode", payload: line))
        link.retain(homeAssistant.modeTopic, name)
    }

    /// The mode at start, retained (unchanged: nothing sent).
    func mode(_ name: String) { link.retain(homeAssistant.modeTopic, name) }

    /// The first touch of a stroke on any device.
    func touched(now: Double) { publish(usage.touched(mono: now, wall: KioskUsage.wallClock())) }

    /// Ghosts or palms counted on a device (after a read, never per frame).
    func counted(_ more: ConditioningCount) {
        conditioning += more
        // Only the counts announced (their feature on), and only when they changed.
        for (topic, count) in homeAssistant.counts(conditioning) where announced[topic] != nil && announced[topic] != count {
            link.retain(topic, count)
            announced[topic] = count
        }
    }

    var deadline: Double? { usage.deadline }

    func due(now: Double) { publish(usage.due(now: now)) }

    private func publish(_ u: KioskUsage.Update) {
        if let t = u.lastTouch { link.retain(homeAssistant.lastTouchTopic, KioskUsage.timestamp(t)) }
        if let on = u.inUse { link.retain(homeAssistant.inUseTopic, on ? "ON" : "OFF") }
    }

    func reply(_ line: String) {
        link.send(.init(topic: link.prefix + "/reply", payload: line))
    }

    /// `gestured-<machine id>` from /etc/machine-id (unique per installed system); the hostname
    /// when there is none.
    static func defaultClientID(hostname: String) -> String {
        if case .success(let bytes) = FileSystem.regularFile(atPath: "/etc/machine-id", maxBytes: 64) {
            let id = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isWhitespace).first.map(String.init) ?? ""
            if id.count == 32, id.allSatisfy(\.isHexDigit) { return "gestured-" + id }
        }
        return "gestured-" + hostname
    }

    static func hostname() -> String {
        var buf = [UInt8](repeating: 0, count: 256)
        guard buf.withUnsafeMutableBytes({ gethostname($0.baseAddress!.assumingMemoryBound(to: CChar.self), 255) }) == 0 else { return "localhost" }
        return String(decoding: buf.prefix { $0 != 0 }, as: UTF8.self)
    }
}
