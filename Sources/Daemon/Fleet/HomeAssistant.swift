import GestureKit

/// Home Assistant's MQTT discovery for one kiosk (`[mqtt] homeassistant = true`), after Home
/// Assistant's documentation of the MQTT `event`, `switch` and `device_trigger` platforms.
///
/// One Home Assistant device per kiosk holds everything: an `event` entity per touch device
/// (its `event_types` the gestures the device recognizes), a `switch` per recognizer (the
/// `enable`/`disable` commands on every device of the kiosk), and a device trigger per gesture
/// the config binds or publishes; and the kiosk itself: its mode as a `select` (set through
/// `<prefix>/command`, which takes it only with `[mqtt] commands = true`), the last touch as a
/// timestamp `sensor` and "in use" as a `binary_sensor`, and where a device quarantines ghosts
/// or rejects palms, their counts as `total_increasing` sensors. One device rather than one per touch device, because the
/// switches and the bindings are the kiosk's (they apply to all its touch devices), a kiosk
/// usually has one touch device, and a hot-plugged one then adds or removes an entity on the
/// kiosk's page instead of a whole device.
///
/// Topics: discovery configs at `<discovery>/<component>/<node>/<object>/config` (retained),
/// events at `<prefix>/event/<device>`, switch states at `<prefix>/switch/<recognizer>`
/// (retained `ON`/`OFF`), the mode at `<prefix>/mode/state`, the last touch at `<prefix>/touch/last`
/// and "in use" at `<prefix>/touch/in_use`, the counts at `<prefix>/touch/ghosts` and
/// `<prefix>/touch/palms` (each retained), availability from `<prefix>/status`.
struct HomeAssistant {
    /// A touch device as Home Assistant sees it: its name, id and recognizers.
    struct TouchDevice {
        var label: DeviceLabel
        var recognizers: [(name: String, enabled: Bool)]
    }

    /// The kiosk's modes as the config names them (without `[[mode]]` sections there is no
    /// select), and whether some device quarantines ghosts or rejects palms (their sensors).
    struct Kiosk {
        var modes: [String]
        var quarantinesGhosts = false
        var rejectsPalms = false
        var hasModes: Bool { modes != [KioskMode.implicitName] }
    }

    let discoveryPrefix: String
    let prefix: String
    let nodeID: String

    init(config: MQTTConfig, prefix: String) {
        discoveryPrefix = config.homeAssistantPrefix
        self.prefix = prefix
        nodeID = Self.objectID(prefix)
    }

    /// What each connection reads back, to find what an earlier run announced and this one no
    /// longer does (discovery, switch states, the counts of a feature turned off since).
    static func readBackTopics(config: MQTTConfig, prefix: String) -> [String] {
        let ha = HomeAssistant(config: config, prefix: prefix)
        return ["\(config.homeAssistantPrefix)/+/\(ha.nodeID)/+/config", prefix + "/switch/+"] + ha.counts(.init()).keys.sorted()
    }

    /// Home Assistant's node and object ids take `[a-zA-Z0-9_-]`; anything else becomes `_`.
    static func objectID(_ s: String) -> String {
        String(s.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") ? $0 : "_" })
    }

    func eventTopic(_ label: DeviceLabel) -> String { "\(prefix)/event/\(Self.objectID(label.id))" }
    var modeTopic: String { prefix + "/mode/state" }
    var lastTouchTopic: String { prefix + "/touch/last" }
    var inUseTopic: String { prefix + "/touch/in_use" }
    var ghostsTopic: String { prefix + "/touch/ghosts" }
    var palmsTopic: String { prefix + "/touch/palms" }

    /// The retained counts of ghosts and palms kept from the app; with `kiosk`, only those of
    /// the features some device has on.
    func counts(_ c: ConditioningCount, kiosk: Kiosk? = nil) -> [String: String] {
        var out: [String: String] = [:]
        if kiosk?.quarantinesGhosts ?? true { out[ghostsTopic] = String(c.ghosts) }
        if kiosk?.rejectsPalms ?? true { out[palmsTopic] = String(c.palms) }
        return out
    }

    /// An event entity's message: the gesture's JSON line with `event_type` first, so that its
    /// fields become the event's attributes.
    static func event(_ kind: GestureKind, json: String) -> String {
        "{\"event_type\":\"\(kind.rawValue)\"," + json.dropFirst()
    }

    /// Every retained message the kiosk wants on the broker: topic → payload.
    func announcements(devices: [TouchDevice], triggers: [GestureKind], kiosk: Kiosk) -> [String: String] {
        var out: [String: String] = [:]
        kioskEntities(kiosk, into: &out)
        for d in devices {
            let object = Self.objectID(d.label.id)
            out[configTopic("event", object)] = entity(d.label.name, object) { w in
                w.key("state_topic"); w.string(eventTopic(d.label))
                w.strings("event_types", d.recognizers.map(\.name))
                w.key("icon"); w.string("mdi:gesture-tap")
            }
        }
        recognizerSwitches(devices, into: &out)
        for kind in triggers {
            out[configTopic("device_automation", kind.rawValue)] = document { w in
                w.key("automation_type"); w.string("trigger")
                w.key("topic"); w.string("\(prefix)/gesture/\(kind.rawValue)")
                w.key("type"); w.string("gesture")
                w.key("subtype"); w.string(kind.rawValue)
            }
        }
        return out
    }

    /// The kiosk's own entities: its mode (if it has modes), last touch, in use, and the counts it keeps.
    private func kioskEntities(_ kiosk: Kiosk, into out: inout [String: String]) {
        if kiosk.hasModes {
            out[configTopic("select", "mode")] = entity("Mode", "mode") { w in
                w.key("command_topic"); w.string(prefix + "/command")
                w.key("command_template"); w.string("{\"mode\":\"{{ value }}\"}")
                w.key("state_topic"); w.string(modeTopic)
                w.strings("options", kiosk.modes)
                w.key("icon"); w.string("mdi:lock-outline")
            }
        }
        out[configTopic("sensor", "last_touch")] = entity("Last touch", "last_touch") { w in
            w.key("state_topic"); w.string(lastTouchTopic)
            w.key("device_class"); w.string("timestamp")
            w.key("icon"); w.string("mdi:gesture-tap-hold")
        }
        out[configTopic("binary_sensor", "in_use")] = entity("In use", "in_use") { w in
            w.key("state_topic"); w.string(inUseTopic)
            w.key("payload_on"); w.string("ON")
            w.key("payload_off"); w.string("OFF")
            w.key("device_class"); w.string("occupancy")
        }
        let counts = [(kiosk.quarantinesGhosts, "ghost_touches", "Ghost touches", ghostsTopic, "mdi:ghost-outline"),
                      (kiosk.rejectsPalms, "palms", "Palms rejected", palmsTopic, "mdi:hand-back-left-off")]
        for (wanted, object, name, topic, icon) in counts where wanted {
            out[configTopic("sensor", object)] = entity(name, object) { w in
                w.key("state_topic"); w.string(topic)
                w.key("state_class"); w.string("total_increasing")
                w.key("entity_category"); w.string("diagnostic")
                w.key("icon"); w.string(icon)
            }
        }
    }

    /// One switch per recognizer: on while it is enabled on every device that runs it.
    private func recognizerSwitches(_ devices: [TouchDevice], into out: inout [String: String]) {
        var recognizers: [String] = []
        var enabled: [String: Bool] = [:]
        for d in devices {
            for r in d.recognizers {
                if enabled[r.name] == nil { recognizers.append(r.name) }
                enabled[r.name] = (enabled[r.name] ?? true) && r.enabled
            }
        }
        for name in recognizers {
            let state = "\(prefix)/switch/\(name)"
            out[configTopic("switch", name)] = entity(name, "switch_" + name) { w in
                w.key("command_topic"); w.string(prefix + "/command")
                w.key("payload_on"); w.string("{\"enable\":\"\(name)\"}")
                w.key("payload_off"); w.string("{\"disable\":\"\(name)\"}")
                w.key("state_topic"); w.string(state)
                w.key("state_on"); w.string("ON")
                w.key("state_off"); w.string("OFF")
                w.key("entity_category"); w.string("config")
                w.key("icon"); w.string("mdi:gesture")
            }
            out[state] = enabled[name] == true ? "ON" : "OFF"
        }
    }

    private func configTopic(_ component: String, _ object: String) -> String {
        "\(discoveryPrefix)/\(component)/\(nodeID)/\(object)/config"
    }

    /// An entity's config: its name, unique id and availability, then its own keys.
    private func entity(_ name: String, _ object: String, _ members: (inout JSONWriter) -> Void) -> String {
        document { w in
            w.key("name"); w.string(name)
            w.key("unique_id"); w.string("gestured_\(nodeID)_\(object)")
            w.key("availability_topic"); w.string(prefix + "/status")
            w.key("payload_available"); w.string("online")
            w.key("payload_not_available"); w.string("offline")
            members(&w)
        }
    }

    /// A discovery config: its own keys, then the kiosk's device and the origin.
    private func document(_ members: (inout JSONWriter) -> Void) -> String {
        var w = JSONWriter()
        w.beginObject()
        members(&w)
        w.object("device") { d in
            d.strings("identifiers", ["gestured_\(nodeID)"])
            d.key("name"); d.string(String(prefix.split(separator: "/").last ?? Substring(prefix)))
            d.key("manufacturer"); d.string("gestured")
            d.key("model"); d.string("touch gestures")
            d.key("sw_version"); d.string(DaemonInfo.version)
        }
        w.object("origin") { o in
            o.key("name"); o.string("gestured")
            o.key("sw_version"); o.string(DaemonInfo.version)
        }
        w.endObject()
        return w.text
    }
}
