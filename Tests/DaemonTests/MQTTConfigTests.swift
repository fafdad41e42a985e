@testable import Daemon
import Testing

/// `[mqtt]`: a bad section is rejected with the line and key, like every other section.
@Suite struct MQTTConfigTests {
    func errors(_ text: String) throws -> [String] {
        let e = try requireThrown(ConfigErrors.self) { try ConfigLoader().parse(text, file: "f.toml") }
        return e.errors.map(\.description)
    }

    @Test func aGoodSectionIsRead() throws {
        let c = try ConfigLoader().parse("""
            [mqtt]
            url = "mqtt://broker.example:1884"
            topic = "museum/kiosk17"
            qos = 0
            max_queue = 50
            [[mqtt.publish]]
            gesture = "circle"
            region = "logo"
            [[mqtt.publish]]
            gesture = "pan"
            [[region]]
            name = "logo"
            rect = [0, 0, 0.2, 0.2]
            """, file: "f.toml")
        let m = try #require(c.mqtt)
        #expect(m.host == "broker.example" && m.port == 1884 && !m.tls)
        #expect(m.topic == "museum/kiosk17" && m.qos == 0 && m.maxQueue == 50)
        #expect(m.fleetTopic == "gestured/all/command" && m.clientID == nil)
        #expect(m.publish.map(\.gesture.rawValue) == ["circle", "pan"])
        #expect(m.publish[0].region == "logo")
        // The same defaults as a [[bind]]: a continuous gesture's end.
        #expect(m.publish[1].phases == [.ended])
    }

    @Test func urlsAndPorts() {
        func parse(_ u: String) -> String {
            switch ConfigLoader.parseBrokerURL(u) {
            case .success(let (h, p, tls)): "\(h) \(p) \(tls)"
            case .failure(let e): "error: \(e.message)"
            }
        }
        #expect(parse("mqtt://10.0.0.5") == "10.0.0.5 1883 false")
        #expect(parse("mqtts://broker.lan") == "broker.lan 8883 true")
        #expect(parse("mqtt://[::1]:1900") == "::1 1900 false")
        #expect(parse("http://x").hasPrefix("error: expected mqtt://"))
        #expect(parse("mqtt://user:pw@x").contains("credentials go in username and password_file"))
        #expect(parse("mqtt://x:99999").contains("bad port"))
    }

    @Test func badSectionsNameLineAndKey() throws {
        #expect(try errors("""
            [mqtt]
            url = "tcp://broker:1883"
            """) == [#"f.toml:2: mqtt.url: expected mqtt://host[:port] or mqtts://host[:port], found "tcp://broker:1883""#])
        #expect(try errors("""
            [mqtt]
            url = "mqtt://broker"
            username = "kiosk"
            password = "hunter2"
            """).first?.hasPrefix("f.toml:4: mqtt.password: a password is never written in the config") == true)
        #expect(try errors("""
            [mqtt]
            url = "mqtt://broker"

            qos = 2
            """) == ["f.toml:4: mqtt.qos: 2 is out of range 0…1"])
        #expect(try errors("""
            [mqtt]
            url = "mqtts://broker"
            """) == ["f.toml:2: mqtt.url: mqtts:// needs ca_file (the CA that signed the broker's certificate)"])
        #expect(try errors("""
            [mqtt]
            url = "mqtt://broker"
            topic = "gestured/#"
            """).first?.hasPrefix("f.toml:3: mqtt.topic: expected a topic") == true)
        #expect(try errors("""
            [mqtt]
            url = "mqtt://broker"
            username = "kiosk"
            password_file = "/nonexistent/pw"
            """) == ["f.toml:4: mqtt.password_file: cannot read /nonexistent/pw: cannot open it: No such file or directory"])
        #expect(try errors("""
            [mqtt]
            topic = "a/b"
            """) == [#"f.toml:1: mqtt: [mqtt] needs url = "mqtt://host:1883" (or mqtts://)"#])
    }

    @Test func homeAssistantKeys() throws {
        let off = try #require(try ConfigLoader().parse("[mqtt]\nurl = \"mqtt://b\"", file: "f.toml").mqtt)
        #expect(!off.homeAssistant && off.homeAssistantPrefix == "homeassistant")
        let on = try #require(try ConfigLoader().parse("""
            [mqtt]
            url = "mqtt://b"
            homeassistant = true
            homeassistant_prefix = "ha/discovery"
            """, file: "f.toml").mqtt)
        #expect(on.homeAssistant && on.homeAssistantPrefix == "ha/discovery")
        #expect(try errors("""
            [mqtt]
            url = "mqtt://b"
            homeassistant = "yes"
            homeassistant_prefix = "ha/+"
            """) == ["f.toml:3: mqtt.homeassistant: expected true or false, found string",
                     #"f.toml:4: mqtt.homeassistant_prefix: expected a topic such as "homeassistant" (no leading or trailing /, no wildcards)"#])
    }

    /// With Home Assistant, bound gestures are published and are device triggers — a stepped
    /// binding's `changed` stream is not published, so a gesture bound only that way is neither.
    @Test func homeAssistantPublishesBoundGesturesButNotTheirSteps() throws {
        let c = try ConfigLoader().parse("""
            [mqtt]
            url = "mqtt://b"
            homeassistant = true
            [[mqtt.publish]]
            gesture = "swipe"
            [[bind]]
            gesture = "circle"
            run = ["/bin/true"]
            [[bind]]
            gesture = "pan"
            step = 10
            step_of = "translation_mm"
            run = ["/bin/true"]
            """, file: "f.toml")
        let (filters, announcing, triggers) = Fleet.published(try #require(c.mqtt), bindings: c.bindings)
        #expect(announcing && triggers == [.circle, .swipe])
        #expect(filters.map(\.gesture) == [.swipe, .circle] && !filters.contains { $0.phases.contains(.changed) })
    }

    @Test func publishFiltersAreCheckedLikeBindings() throws {
        #expect(try errors("""
            [mqtt]
            url = "mqtt://broker"
            [[mqtt.publish]]
            gesture = "circle"
            [[mqtt.publish]]
            gesture = "lasso"
            """).map { $0.hasPrefix(#"f.toml:6: mqtt.publish[2].gesture: unknown gesture "lasso""#) } == [true])
        #expect(try errors("""
            [mqtt]
            url = "mqtt://broker"
            [[mqtt.publish]]
            gesture = "pan"
            phase = "recognized"
            run = ["x"]
            """) == [
                "f.toml:5: mqtt.publish[1].phase: pan is continuous: its phases are began, changed, ended and cancelled",
                "f.toml:6: mqtt.publish[1].run: unknown key (expected gesture, device, region, direction, edge, fingers, count, phase, shape)",
            ])
    }

    /// Remote commands only where no one on the way can read or forge them: TLS, or a broker on
    /// this host's loopback, decided by the address and not by how the name looks. A username
    /// over plain mqtt:// does not count: its password and the commands would cross in clear.
    @Test func commandsNeedTLSOrALoopbackAddress() throws {
        func section(_ url: String, _ extra: String = "") -> String {
            "[mqtt]\nurl = \"\(url)\"\n\(extra)commands = true\n"
        }
        for url in ["mqtt://127.0.0.1:1883", "mqtt://127.1.2.3", "mqtt://[::1]:1884", "mqtt://[::ffff:127.0.0.1]", "mqtt://localhost"] {
            #expect(try ConfigLoader().parse(section(url), file: "f.toml").mqtt?.commands == true, "\(url)")
        }
        let refused = "commands are taken only over mqtts:// or from a broker on a loopback address"
        for (url, extra) in [("mqtt://127.example.org", ""), ("mqtt://127.0.0.1.nip.io", ""), ("mqtt://localhost.evil.org", ""),
                             ("mqtt://broker.lan", "username = \"kiosk\"\n"), ("mqtt://10.0.0.5", "username = \"kiosk\"\n"),
                             ("mqtt://[::2]", ""), ("mqtt://128.0.0.1", ""), ("mqtt://0.0.0.0", "")] {
            let lines = extra.isEmpty ? 3 : 4
            #expect(try errors(section(url, extra)).map { $0.hasPrefix("f.toml:\(lines): mqtt.commands: \(refused)") } == [true], "\(url)")
        }
        #expect(!ConfigLoader.isLoopback("127.example.org") && !ConfigLoader.isLoopback("127.") && ConfigLoader.isLoopback("127.255.255.254"))
        // Without commands, plain mqtt:// anywhere is still a publisher's choice.
        #expect(try ConfigLoader().parse("[mqtt]\nurl = \"mqtt://127.example.org\"\n", file: "f.toml").mqtt != nil)
    }
}
