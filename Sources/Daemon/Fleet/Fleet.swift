import GestureKit
import Glibc
import Logging

/// What the service tells the fleet's broker, and where: gestures that pass the `[mqtt]`
/// filters to `<prefix>/gesture/<name>`, devices coming and going to `<prefix>/device`,
/// mode changes to `<prefix>/mode`, command replies to `<prefix>/reply` (`<prefix>/status` is the link's own). Lives on the
/// daemon's thread; everything it sends goes through the link's bounded queue.
final class Fleet {
    let link: MQTTLink
    private(set) var filters: [GestureFilter]

    init(config: MQTTConfig, log: Logger) throws {
        link = try MQTTLink(config: config, hostname: Self.hostname(), log: log)
        filters = Self.filters(config)
    }

    /// The `[[mqtt.publish]]` filters; none given: every gesture, in its default phases.
    static func filters(_ config: MQTTConfig) -> [GestureFilter] {
        config.publish.isEmpty ? GestureKind.allCases.map { GestureFilter(gesture: $0) } : config.publish
    }

    /// A reload: new filters apply at once; the connection settings on restart.
    func reload(_ config: MQTTConfig?, log: Logger) {
        guard let config else { log.notice("[mqtt] removed: takes effect on restart"); return }
        var same = config
        same.publish = link.config.publish
        if same != link.config { log.notice("[mqtt] connection changes take effect on restart") }
        filters = Self.filters(config)
    }

    func gesture(_ e: GestureEvent, device: DeviceLabel) {
        guard filters.contains(where: { $0.matches(e, device: device) }) else { return }
        link.send(.init(topic: "\(link.prefix)/gesture/\(e.kind.rawValue)", payload: e.json(device: device)))
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

    /// A change of the kiosk's mode (the line socket clients get) on `<prefix>/mode`.
    func mode(_ line: String) {
        link.send(.init(topic: link.prefix + "/mode", payload: line))
    }

    func reply(_ line: String) {
        link.send(.init(topic: link.prefix + "/reply", payload: line))
    }

    static func hostname() -> String {
        var buf = [UInt8](repeating: 0, count: 256)
        guard buf.withUnsafeMutableBytes({ gethostname($0.baseAddress!.assumingMemoryBound(to: CChar.self), 255) }) == 0 else { return "localhost" }
        return String(decoding: buf.prefix { $0 != 0 }, as: UTF8.self)
    }
}
