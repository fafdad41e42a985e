import Foundation
import Glibc
import Testing

/// `[mqtt] homeassistant = true` against a real mosquitto broker: the retained discovery configs
/// as Home Assistant reads them, checked against the schema README documents; the clearing of
/// what the config no longer has; the switches mapped to enable/disable. (Against a real Home
/// Assistant: Tests/homeassistant/run.sh.)
@Suite(.serialized) struct HomeAssistantTests {
    static let prefix = "museum/kiosk4"
    static let node = "museum_kiosk4"

    static func config(_ broker: Broker, homeassistant: Bool = true, extra: String = "") -> String {
        FleetTests.config(broker, prefix: prefix, extra: """
            homeassistant = \(homeassistant)
            [[mqtt.publish]]
            gesture = "swipe"
            [[bind]]
            gesture = "circle"
            run = ["/bin/true"]
            \(extra)
            """)
    }

    /// Every retained discovery config for the kiosk: topic → JSON.
    static func discovery(_ broker: Broker) throws -> [String: [String: Any]] {
        try broker.retained("homeassistant/+/\(node)/+/config").mapValues { FleetTests.json($0) }
    }

    /// The keys each component's config has (README's schema, after Home Assistant's MQTT
    /// `event`, `switch` and `device_trigger` documentation): required, then optional.
    static let schema: [String: (required: Set<String>, optional: Set<String>)] = [
        "event": (["state_topic", "event_types", "device"], ["name", "unique_id", "availability_topic", "payload_available", "payload_not_available", "icon", "origin"]),
        "switch": (["command_topic", "state_topic", "device"], ["name", "unique_id", "availability_topic", "payload_available", "payload_not_available",
                                                                 "payload_on", "payload_off", "state_on", "state_off", "entity_category", "icon", "origin"]),
        "device_automation": (["automation_type", "topic", "type", "subtype", "device"], ["origin"]),
        "select": (["command_topic", "options", "device"], ["name", "unique_id", "availability_topic", "payload_available", "payload_not_available",
                                                            "command_template", "state_topic", "icon", "origin"]),
        "sensor": (["state_topic", "device"], ["name", "unique_id", "availability_topic", "payload_available", "payload_not_available",
                                               "device_class", "state_class", "entity_category", "icon", "origin"]),
        "binary_sensor": (["state_topic", "device"], ["name", "unique_id", "availability_topic", "payload_available", "payload_not_available",
                                                      "payload_on", "payload_off", "device_class", "icon", "origin"]),
    ]

    /// The whole discovery set is on the broker: the event entity, a switch for each recognizer
    /// it names, and the two triggers. The daemon's publisher sends them a few at a time, so a
    /// read may see part of the set (a test that waited for any 3 then missed the circle's switch).
    static func isComplete(_ configs: [String: [String: Any]]) -> Bool {
        guard let event = configs.first(where: { $0.key.hasPrefix("homeassistant/event/") })?.value,
              let recognizers = event["event_types"] as? [String], !recognizers.isEmpty else { return false }
        return recognizers.allSatisfy { configs["homeassistant/switch/\(node)/\($0)/config"] != nil }
            && configs.keys.filter { $0.contains("/device_automation/") }.count >= 2
    }

    /// Waits until the retained discovery set satisfies `done`; returns the last one read.
    static func discovery(_ broker: Broker, until done: ([String: [String: Any]]) -> Bool) throws -> [String: [String: Any]] {
        try broker.retained("homeassistant/+/\(node)/+/config") { done($0.mapValues { FleetTests.json($0) }) }
            .mapValues { FleetTests.json($0) }
    }

    @Test func everyDiscoveryConfigFollowsTheSchema() throws {
        let broker = try Broker()
        let d = try DaemonHarness(config: Self.config(broker), replays: [DaemonHarness.circleRecording])
        let configs = try Self.discovery(broker, until: Self.isComplete)
        let event = try #require(configs["homeassistant/event/\(Self.node)/Wacom_ISDv4_E6_Finger_single-center-circle/config"], "\(configs.keys)\n\(d.log)")
        let circle = try #require(configs["homeassistant/switch/\(Self.node)/circle/config"], "\(configs.keys)")
        for (topic, config) in configs {
            let component = topic.split(separator: "/")[1]
            let schema = try #require(Self.schema[String(component)], "an unknown component: \(topic)")
            let keys = Set(config.keys)
            #expect(schema.required.isSubset(of: keys), "\(topic) lacks \(schema.required.subtracting(keys))")
            #expect(keys.isSubset(of: schema.required.union(schema.optional)), "\(topic) has \(keys.subtracting(schema.required.union(schema.optional)))")
            let device = config["device"] as? [String: Any] ?? [:]
            #expect(device["identifiers"] as? [String] == ["gestured_\(Self.node)"] && device["name"] as? String == "kiosk4", "\(topic): \(device)")
            if component != "device_automation" {
                #expect(config["availability_topic"] as? String == Self.prefix + "/status" && config["unique_id"] as? String != nil, "\(topic)")
            }
        }
        let recognizers = try #require(event["event_types"] as? [String])
        #expect(recognizers.contains("circle") && recognizers.contains("swipe"))
        // A switch per recognizer the device runs; a trigger per gesture bound (circle) or published (swipe).
        #expect(Set(configs.keys.filter { $0.contains("/switch/") }.map { $0.split(separator: "/")[3] }) == Set(recognizers.map { Substring($0) }))
        #expect(Set(configs.keys.filter { $0.contains("/device_automation/") }) == [
            "homeassistant/device_automation/\(Self.node)/circle/config", "homeassistant/device_automation/\(Self.node)/swipe/config",
        ])
        #expect(circle["command_topic"] as? String == Self.prefix + "/command" && circle["payload_off"] as? String == #"{"disable":"circle"}"#)
        #expect(try broker.retained(Self.prefix + "/switch/circle") { $0[Self.prefix + "/switch/circle"] == "ON" } == [Self.prefix + "/switch/circle": "ON"])

        // A circle, bound but not in [[mqtt.publish]], still reaches the event entity and the trigger's topic.
        let sub = try Subscriber(broker, topic: Self.prefix + "/#", id: "ha-event")
        try d.replayAndWait(try d.connect())
        let fired = FleetTests.json(try #require(sub.wait(for: 1, on: event["state_topic"] as? String ?? "").first, "\(sub.messages)"))
        #expect(fired["event_type"] as? String == "circle" && fired["gesture"] as? String == "circle" && (fired["radius_mm"] as? Double ?? 0) > 0)
        #expect(sub.wait(for: 1, on: Self.prefix + "/gesture/circle").count == 1)
    }

    @Test func theSwitchIsTheEnableAndDisableCommands() throws {
        let broker = try Broker()
        let d = try DaemonHarness(config: Self.config(broker), replays: [DaemonHarness.circleRecording])
        let circle = try #require(try Self.discovery(broker, until: Self.isComplete)["homeassistant/switch/\(Self.node)/circle/config"])
        let stateTopic = Self.prefix + "/switch/circle"
        func state(_ expected: String) throws -> String? {
            try broker.retained(stateTopic) { $0[stateTopic] == expected }[stateTopic]
        }
        // What Home Assistant sends when the switch is turned off.
        try broker.publish(try #require(circle["command_topic"] as? String), try #require(circle["payload_off"] as? String))
        #expect(try state("OFF") == "OFF", "\(d.log)")
        let c = try d.connect()
        let recognizers = ((try c.command(#"{"status":true}"#)["status"] as? [String: Any])?["devices"] as? [[String: Any]])?.first?["recognizers"] as? [[String: Any]] ?? []
        #expect(recognizers.contains { $0["name"] as? String == "circle" && $0["enabled"] as? Bool == false })
        // The retained state follows the kiosk, whoever switches it.
        #expect(try c.command(#"{"enable":"circle"}"#)["enabled"] as? Bool == true)
        #expect(try state("ON") == "ON")
        // Stays across a reload.
        #expect(try c.command(#"{"disable":"circle"}"#)["enabled"] as? Bool == false)
        d.signal(SIGHUP)
        usleep(500_000)
        #expect(try state("OFF") == "OFF")
    }

    @Test func whatTheConfigNoLongerHasIsCleared() throws {
        let broker = try Broker()
        // An earlier run's config for a recognizer this one does not have, and its state.
        try broker.publish("homeassistant/switch/\(Self.node)/lasso/config", #"{"command_topic":"x"}"#, retain: true)
        try broker.publish(Self.prefix + "/switch/lasso", "ON", retain: true)
        // And a count of ghosts, from a run that quarantined them: this one does not.
        try broker.publish(Self.prefix + "/touch/ghosts", "7", retain: true)
        let d = try DaemonHarness(config: Self.config(broker), replays: [DaemonHarness.circleRecording])
        let configs = try Self.discovery(broker) { $0["homeassistant/switch/\(Self.node)/lasso/config"] == nil && Self.isComplete($0) }
        #expect(configs["homeassistant/switch/\(Self.node)/lasso/config"] == nil && configs.count >= 3, "\(configs.keys)\n\(d.log)")
        #expect(try broker.retained(Self.prefix + "/switch/lasso") { $0.isEmpty }.isEmpty)
        #expect(try broker.retained(Self.prefix + "/touch/ghosts") { $0.isEmpty }.isEmpty, "\(d.log)")

        // The binding removed: its trigger goes, the published swipe's stays.
        let circleTrigger = "homeassistant/device_automation/\(Self.node)/circle/config"
        try FleetTests.config(broker, prefix: Self.prefix, extra: "homeassistant = true\n[[mqtt.publish]]\ngesture = \"swipe\"")
            .write(toFile: d.configPath, atomically: true, encoding: .utf8)
        d.signal(SIGHUP)
        let unbound = try Self.discovery(broker) { $0[circleTrigger] == nil }
        #expect(unbound[circleTrigger] == nil && unbound.keys.contains { $0.hasSuffix("/swipe/config") && $0.contains("device_automation") }, "\(unbound.keys)\n\(d.log)")

        // Home Assistant off: nothing of the kiosk's is left on the broker.
        try Self.config(broker, homeassistant: false).write(toFile: d.configPath, atomically: true, encoding: .utf8)
        d.signal(SIGHUP)
        #expect(try Self.discovery(broker) { $0.isEmpty }.isEmpty, "\(d.log)")
        #expect(try broker.retained(Self.prefix + "/switch/+") { $0.isEmpty }.isEmpty)
    }

    /// A kiosk with modes: `commands` as given, in use for 0.05 min (3 s) after a touch.
    static func kioskConfig(_ broker: Broker, commands: Bool) -> String {
        FleetTests.config(broker, prefix: prefix, extra: """
            homeassistant = true
            in_use_minutes = 0.05
            [[mode]]
            name = "normal"
            [[mode]]
            name = "locked"
            recognizers = []
            """, commands: commands)
    }

    @Test("the kiosk: the mode as a select, the last touch and in use as sensors; a touch turns in use on, then off, and sets the last touch")
    func kioskEntities() throws {
        let broker = try Broker()
        let before = Date().timeIntervalSince1970
        let d = try DaemonHarness(config: Self.kioskConfig(broker, commands: true), replays: [DaemonHarness.circleRecording])
        let configs = try Self.discovery(broker) { $0["homeassistant/select/\(Self.node)/mode/config"] != nil && $0["homeassistant/binary_sensor/\(Self.node)/in_use/config"] != nil
            && $0["homeassistant/sensor/\(Self.node)/last_touch/config"] != nil }
        let select = try #require(configs["homeassistant/select/\(Self.node)/mode/config"], "\(configs.keys)\n\(d.log)")
        #expect(select["options"] as? [String] == ["normal", "locked"])
        #expect(select["command_topic"] as? String == Self.prefix + "/command" && select["command_template"] as? String == #"{"mode":"{{ value }}"}"#)
        #expect(select["state_topic"] as? String == Self.prefix + "/mode/state" && select["availability_topic"] as? String == Self.prefix + "/status")
        let lastTouch = try #require(configs["homeassistant/sensor/\(Self.node)/last_touch/config"])
        #expect(lastTouch["device_class"] as? String == "timestamp" && lastTouch["state_topic"] as? String == Self.prefix + "/touch/last")
        let inUse = try #require(configs["homeassistant/binary_sensor/\(Self.node)/in_use/config"])
        #expect(inUse["device_class"] as? String == "occupancy" && inUse["state_topic"] as? String == Self.prefix + "/touch/in_use")
        let modeTopic = Self.prefix + "/mode/state", inUseTopic = Self.prefix + "/touch/in_use", lastTopic = Self.prefix + "/touch/last"
        #expect(try broker.retained(modeTopic) { $0[modeTopic] == "normal" }[modeTopic] == "normal")
        #expect(try broker.retained(inUseTopic) { $0[inUseTopic] == "OFF" }[inUseTopic] == "OFF")

        let sub = try Subscriber(broker, topic: Self.prefix + "/touch/#", id: "ha-touch")
        try d.replayAndWait(try d.connect())
        // The retained OFF (a new subscription's), then the touch's ON.
        let on = sub.wait(for: 2, on: inUseTopic)
        #expect(on == ["OFF", "ON"], "\(sub.messages)")
        let stamp = try #require(sub.wait(for: 1, on: lastTopic).first, "\(sub.messages)")
        // ISO 8601 in UTC, at the replay's touch: between the daemon's start and now.
        let parser = ISO8601DateFormatter()
        parser.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let touched = try #require(parser.date(from: stamp), "\(stamp)").timeIntervalSince1970
        #expect(touched >= before - 1 && touched <= Date().timeIntervalSince1970 + 1, "\(stamp)")
        // 3 s after the last touch the kiosk is no longer in use.
        let off = sub.wait(for: 3, on: inUseTopic, timeout: 10)
        #expect(off == ["OFF", "ON", "OFF"], "\(sub.messages)\n\(d.log)")

        // Home Assistant's select: the template applied to the option, on the command topic.
        try broker.publish(Self.prefix + "/command", #"{"mode":"locked"}"#)
        #expect(try broker.retained(modeTopic) { $0[modeTopic] == "locked" }[modeTopic] == "locked", "\(d.log)")
        let status = try d.connect().command(#"{"status":true}"#)["status"] as? [String: Any]
        #expect(status?["mode"] as? String == "locked", "\(status ?? [:])")
    }

    @Test("commands off: a mode set from the broker is not obeyed; turned off by a reload, what still arrives is refused on the reply topic")
    func modeRefusedWithoutCommands() throws {
        let broker = try Broker()
        let modeTopic = Self.prefix + "/mode/state"
        // Off from the start (the default): the kiosk does not even subscribe.
        let off = try DaemonHarness(config: Self.kioskConfig(broker, commands: false), replays: [DaemonHarness.circleRecording])
        _ = try Self.discovery(broker) { $0["homeassistant/select/\(Self.node)/mode/config"] != nil }
        try broker.publish(Self.prefix + "/command", #"{"mode":"locked"}"#)
        Thread.sleep(forTimeInterval: 1)
        #expect(try off.connect().command(#"{"status":true}"#)["status"].flatMap { ($0 as? [String: Any])?["mode"] as? String } == "normal")
        off.signal(SIGTERM)
        _ = off.waitForExit(timeout: 5)

        // On, then off by a reload: the subscription stays until a restart, the commands are refused.
        let d = try DaemonHarness(config: Self.kioskConfig(broker, commands: true), replays: [DaemonHarness.circleRecording])
        _ = try Self.discovery(broker) { $0["homeassistant/select/\(Self.node)/mode/config"] != nil }
        try Self.kioskConfig(broker, commands: false).write(toFile: d.configPath, atomically: true, encoding: .utf8)
        d.signal(SIGHUP)
        let deadline = Date().addingTimeInterval(10)
        while !d.log.contains("configuration reloaded") && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(d.log.contains("configuration reloaded"), "\(d.log)")
        let sub = try Subscriber(broker, topic: Self.prefix + "/reply", id: "ha-reply")
        try broker.publish(Self.prefix + "/command", #"{"mode":"locked"}"#)
        let reply = FleetTests.json(try #require(sub.wait(for: 1, on: Self.prefix + "/reply").first, "\(sub.messages)\n\(d.log)"))
        #expect((reply["error"] as? String)?.contains("refused: this kiosk takes no commands from the broker ([mqtt] commands = false)") == true, "\(reply)")
        let status = try d.connect().command(#"{"status":true}"#)["status"] as? [String: Any]
        #expect(status?["mode"] as? String == "normal", "\(status ?? [:])")
        #expect(try broker.retained(modeTopic) { $0[modeTopic] == "normal" }[modeTopic] == "normal")
    }

    /// The N-Trig panel's drag, after two phantoms at one place (a down and an up at one kernel
    /// time, 1 s apart, as the Raspberry Pi Touch Display 2 sends them), beside its description.
    static func ghostRecording() throws -> String {
        let dir = NSTemporaryDirectory() + "gestured-ghosts-\(getpid())-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let touchscreens = DaemonHarness.fixtures + "/touchscreens/"
        try FileManager.default.copyItem(atPath: touchscreens + "N-Trig_MultiTouch.desc", toPath: dir + "/N-Trig_MultiTouch.desc")
        let drag = try String(contentsOfFile: DaemonHarness.dragRecording, encoding: .utf8)
        let phantoms = ["1357751025.000000", "1357751026.000000"].map { t in
            // mtdev takes a protocol A contact only with a touch size (10 units: far below palm_mm).
            ["0003 0000 5000", "0003 0001 3000", "0003 0035 5000", "0003 0036 3000", "0003 0030 10", "0003 0031 10", "0000 0002 0", "0001 014d 1", "0001 014a 1", "0000 0000 0",
             "0001 014d 0", "0001 014a 0", "0000 0000 0"].map { "E: \(t) \($0)\n" }.joined()
        }.joined()
        let path = dir + "/N-Trig_MultiTouch.phantoms-then-drag.events"
        try (phantoms + drag).write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("ghosts quarantined and palms rejected: counted on <prefix>/touch/ghosts and /palms, total_increasing sensors in Home Assistant; the place logged once")
    func conditioningCounts() throws {
        let broker = try Broker()
        let recording = try Self.ghostRecording()
        defer { try? FileManager.default.removeItem(atPath: (recording as NSString).deletingLastPathComponent) }
        // palm_mm = 5: the N-Trig drag's finger is larger (PalmRuleTests), so it is a palm; the phantoms report no size.
        func config(ghosts: Bool) -> String {
            FleetTests.config(broker, prefix: Self.prefix, extra: """
                homeassistant = true
                [[device]]
                name = "N-Trig MultiTouch"
                quarantine_ghosts = \(ghosts)
                palm_mm = 5
                """)
        }
        let d = try DaemonHarness(config: config(ghosts: true), replays: [recording])
        let ghostsConfig = "homeassistant/sensor/\(Self.node)/ghost_touches/config", palmsConfig = "homeassistant/sensor/\(Self.node)/palms/config"
        let configs = try Self.discovery(broker) { $0[ghostsConfig] != nil && $0[palmsConfig] != nil }
        let ghostsTopic = Self.prefix + "/touch/ghosts", palmsTopic = Self.prefix + "/touch/palms"
        for (topic, state) in [(ghostsConfig, ghostsTopic), (palmsConfig, palmsTopic)] {
            let sensor = try #require(configs[topic], "\(configs.keys)\n\(d.log)")
            #expect(sensor["state_topic"] as? String == state && sensor["state_class"] as? String == "total_increasing", "\(sensor)")
            #expect(sensor["availability_topic"] as? String == Self.prefix + "/status" && sensor["entity_category"] as? String == "diagnostic", "\(sensor)")
        }
        #expect(try broker.retained(Self.prefix + "/touch/+") { $0[ghostsTopic] == "0" && $0[palmsTopic] == "0" }[ghostsTopic] == "0", "\(d.log)")

        let sub = try Subscriber(broker, topic: Self.prefix + "/touch/#", id: "ha-conditioning")
        try d.replayAndWait(try d.connect())
        let counts = try broker.retained(Self.prefix + "/touch/+") { $0[ghostsTopic] == "2" && $0[palmsTopic] == "1" }
        #expect(counts[ghostsTopic] == "2" && counts[palmsTopic] == "1", "\(counts)\n\(sub.messages)\n\(d.log)")
        // Published on change, never more than once per count.
        let ghosts = sub.messages(on: ghostsTopic)
        #expect(ghosts.last == "2" && ghosts.count <= 3, "\(ghosts)")
        let status = try d.connect().command(#"{"status":true}"#)["status"] as? [String: Any]
        let device = (status?["devices"] as? [[String: Any]])?.first
        let conditioning = device?["conditioning"] as? [String: Any]
        #expect(conditioning?["ghosts"] as? Int == 2 && conditioning?["palms"] as? Int == 1, "\(status ?? [:])")
        // The two phantoms are one place: one line in the log.
        #expect(d.log.components(separatedBy: "ghost touch quarantined at").count == 2, "\(d.log)")

        // The quarantine turned off: its sensor and its count leave the broker, the palms' stay.
        try config(ghosts: false).write(toFile: d.configPath, atomically: true, encoding: .utf8)
        d.signal(SIGHUP)
        let left = try broker.retained(Self.prefix + "/touch/+") { $0[ghostsTopic] == nil }
        #expect(left[ghostsTopic] == nil && left[palmsTopic] == "1", "\(left)\n\(d.log)")
        let after = try Self.discovery(broker) { $0[ghostsConfig] == nil }
        #expect(after[ghostsConfig] == nil && after[palmsConfig] != nil, "\(after.keys)\n\(d.log)")
    }

    /// The broker away for far longer than the back-off's cap (`reconnect_max = 1`: 8 s away is
    /// 8 caps, and every cap after the first is the same as an hour's): what the kiosk did meanwhile
    /// arrives as its state now, not as a backlog — the mode switched three times is one message,
    /// the last. The events beyond `max_queue` are dropped and counted; the loss is logged once;
    /// the link is back within the cap of the broker's return.
    @Test("the broker away for many back-off caps: on its return the retained state is the current one, events bounded, one log line")
    func brokerAwayFindsTheStateCurrent() throws {
        let broker = try Broker()
        let modeTopic = Self.prefix + "/mode/state"
        let d = try DaemonHarness(config: FleetTests.config(broker, prefix: Self.prefix, extra: """
            max_queue = 2
            homeassistant = true
            [[mqtt.publish]]
            gesture = "circle"
            [[mode]]
            name = "normal"
            [[mode]]
            name = "locked"
            recognizers = []
            """), replays: [DaemonHarness.circleRecording])
        #expect(try broker.retained(modeTopic) { $0[modeTopic] == "normal" }[modeTopic] == "normal", "\(d.log)")
        let sub = try Subscriber(broker, topic: Self.prefix + "/#", id: "away")
        let c = try d.connect()
        try broker.persist()
        broker.kill()
        let deadline = Date().addingTimeInterval(10)
        while try FleetTests.mqttStatus(c)["connected"] as? Bool != false, Date() < deadline { usleep(50_000) }
        let seen = sub.messages.count
        for _ in 1...4 { try d.replayAndWait(c) }
        for mode in ["locked", "normal", "locked"] {
            #expect(try c.command(#"{"mode":"\#(mode)"}"#)["mode"] as? String == mode)
        }
        sleep(8)
        let away = try FleetTests.mqttStatus(c)
        #expect(away["connected"] as? Bool == false && away["queued"] as? Int == 2, "\(away)")

        try broker.start()
        let back = Date()
        while try FleetTests.mqttStatus(c)["connected"] as? Bool != true, Date().timeIntervalSince(back) < 10 { usleep(50_000) }
        // The cap (1 s) and the start of the next attempt's connection; generous for a loaded host.
        print("broker away 8 s (8 back-off caps): the link back \(String(format: "%.2f", Date().timeIntervalSince(back))) s after the broker")
        #expect(Date().timeIntervalSince(back) < 4, "reconnected \(Date().timeIntervalSince(back)) s after the broker's return\n\(d.log)")
        #expect(try broker.retained(modeTopic) { $0[modeTopic] == "locked" }[modeTopic] == "locked", "\(d.log)")
        usleep(500_000)
        let after = Array(sub.messages.dropFirst(seen))
        // Retained state may arrive twice (the daemon's publish, and the subscriber's own
        // resubscription), and the broker's kept "normal" may come first; a backlog would be
        // locked, normal, locked.
        let modes = after.filter { $0.hasPrefix(modeTopic + " ") }.map { String($0.dropFirst(modeTopic.count + 1)) }
        #expect(!modes.isEmpty && Set(modes.drop { $0 == "normal" }) == ["locked"], "\(after)\n\(d.log)")
        // Events (4 circles, then 3 mode switches) beyond max_queue = 2 are dropped, oldest first:
        // the last two switches arrive, and at most one circle libmosquitto held when the link
        // dropped (FleetTests).
        let events = after.filter { $0.hasPrefix(Self.prefix + "/gesture/") || $0.hasPrefix(Self.prefix + "/mode {") }
        #expect((2...3).contains(events.count) && events.suffix(2).map { $0.contains(#""mode":"normal""#) } == [true, false], "\(after)")
        #expect(events.last?.contains(#""mode":"locked""#) == true, "\(after)")
        #expect(d.log.components(separatedBy: "mqtt: lost").count - 1 == 1, "\(d.log)")
    }
}
