import Glibc

/// Every key of `[mqtt]`, in the order they are read and explained.
extension MQTTConfig: SettingTable {
    public static let settings: [Setting<MQTTConfig>] = [
        Setting("url", type: "mqtt://host[:port] or mqtts://host[:port]", merge: .single, "The broker; mqtts:// is TLS.",
                read: { t, _, c in
                    guard let url = t.string("url") else { return }
                    switch ConfigLoader.parseBrokerURL(url) {
                    case .success(let (host, port, tls)): (c.host, c.port, c.tls) = (host, port, tls)
                    case .failure(let e): t.error("url", e.message)
                    }
                },
                overlay: { _, _ in },
                describe: { m, _ in ["\(m.tls ? "mqtts" : "mqtt")://\(m.host):\(m.port)"] }),
        file("ca_file", \.caFile, "The CA that signed the broker's certificate (mqtts:// only)."),
        file("cert_file", \.certFile, "A client certificate, with key_file (mqtts:// only)."),
        file("key_file", \.keyFile, "The client certificate's key (mqtts:// only)."),
        Setting("username", once: \.username, type: "a string", "The user to log in as.",
                read: { t, _, _ in
                    guard let u = t.string("username") else { return nil }
                    if u.isEmpty { t.error("username", "must not be empty"); return nil }
                    return u
                },
                describe: { v, _ in v.map { ["as user \($0)"] } ?? [] }),
        file("password_file", \.passwordFile, "A file whose first line is the password (never the password itself)."),
        Setting("commands", once: \.commands, type: "true or false",
                "Obey commands from the broker (<topic>/command and fleet_topic); off by default. Retained commands never are.",
                read: { t, _, _ in t.bool("commands") },
                describe: { on, m in [on ? "obeys commands on \(m.topic ?? "gestured/<hostname>")/command and \(m.fleetTopic) (never retained ones)" : "takes no commands from the broker"] }),
        Setting("client_id", once: \.clientID, type: "1–230 bytes", "The client id (default: gestured-<machine id>).",
                read: { t, _, _ in
                    guard let id = t.string("client_id") else { return nil }
                    if id.isEmpty || id.utf8.count > 23 * 10 { t.error("client_id", "must be 1–230 bytes"); return nil }
                    return id
                },
                describe: { v, _ in ["client id \(v ?? "gestured-<machine id>")"] }),
        Setting("homeassistant", once: \.homeAssistant, type: "true or false", "Announce the kiosk to Home Assistant (MQTT discovery).",
                read: { t, _, _ in t.bool("homeassistant") },
                describe: { on, m in
                    on ? ["Home Assistant discovery under \(m.homeAssistantPrefix)/: an event entity per touch device, a switch per recognizer, "
                        + "a device trigger per gesture bound or published (bound gestures are published too)"] : []
                }),
        Setting("in_use_minutes", once: \.inUseMinutes, type: "a number 0.05…1440", unit: "min",
                "Minutes after the last touch that the kiosk counts as in use (Home Assistant's \"in use\").",
                read: { t, _, _ in t.number("in_use_minutes", in: 0.05...1440, unit: "min") },
                describe: { v, m in m.homeAssistant ? ["in use until \(fmt(v)) min after the last touch"] : [] }),
        Setting("topic", once: \.topic, type: "a topic", "Where the kiosk publishes (default: gestured/<hostname>).",
                read: topic("topic", example: "gestured/kiosk17"), describe: { v, _ in ["topics \(v ?? "gestured/<hostname>")/…"] }),
        Setting("fleet_topic", once: \.fleetTopic, type: "a topic", "Commands every kiosk of the fleet takes.",
                read: topic("fleet_topic", example: "gestured/all/command"), describe: { v, _ in ["commands also on \(v)"] }),
        Setting("homeassistant_prefix", once: \.homeAssistantPrefix, type: "a topic", "Where Home Assistant listens for discovery.",
                read: topic("homeassistant_prefix", example: "homeassistant"), describe: { _, _ in [] }),
        Setting("qos", once: \.qos, type: "an integer 0…1", "MQTT quality of service.",
                read: { t, _, _ in t.int("qos", in: 0...1).map(Int32.init) }, describe: { v, _ in ["qos \(v)"] }),
        Setting("max_queue", once: \.maxQueue, type: "an integer 1…1000000", unit: "messages", "Messages held while the broker is away; past it the oldest are dropped.",
                read: { t, _, _ in t.int("max_queue", in: 1...1_000_000) },
                describe: { v, _ in ["up to \(v) messages queued while the broker is away"] }),
        Setting("reconnect_max", once: \.reconnectMax, type: "a number 1…3600", unit: "s", "Back-off between reconnection attempts doubles up to this.",
                read: { t, _, _ in t.number("reconnect_max", in: 1...3600, unit: "s") },
                describe: { v, _ in ["reconnect back-off up to \(fmt(v)) s"] }),
        Setting("keepalive", once: \.keepalive, type: "an integer 5…3600", unit: "s", "MQTT keep-alive.",
                read: { t, _, _ in t.int("keepalive", in: 5...3600).map(Int32.init) }, describe: { v, _ in ["keepalive \(v) s"] }),
        Setting("publish", type: "[[mqtt.publish]] gesture filters", merge: .single, "What is published (default: every gesture, in its default phases).",
                read: { t, c, m in
                    var ok = true
                    for f in t.tables("publish") {
                        if let filter = c.loader.readFilter(f, section: "[[mqtt.publish]]", regions: c.regions, ok: &ok) { m.publish.append(filter) }
                        f.finish(expected: ConfigLoader.filterKeys)
                    }
                },
                overlay: { _, _ in },
                describe: { m, _ in
                    m.publish.isEmpty ? ["publishes every gesture in its default phases"] : m.publish.map { "publishes " + $0.conditions.joined(separator: ", ") }
                }),
    ]

    /// An absolute path; whether it can be read is the resolve step's question (ConfigResolver).
    private static func file(_ key: String, _ field: WritableKeyPath<MQTTConfig, String?> & Sendable, _ summary: String) -> Setting<MQTTConfig> {
        Setting(key, once: field, type: "an absolute path", summary,
                read: { t, _, _ in
                    guard let p = t.string(key) else { return nil }
                    if !p.hasPrefix("/") { t.error(key, "must be an absolute path"); return nil }
                    return p
                },
                describe: { v, _ in v.map { ["\(key) \($0)"] } ?? [] })
    }

    /// Reads a topic to publish or subscribe under: no leading or trailing /, no wildcards.
    private static func topic(_ key: String, example: String) -> @Sendable (TableReader, SettingContext, MQTTConfig) -> String? {
        { t, _, _ in
            guard let topic = t.string(key) else { return nil }
            if topic.isEmpty || topic.hasPrefix("/") || topic.hasSuffix("/") || topic.contains("+") || topic.contains("#") {
                t.error(key, "expected a topic such as \"\(example)\" (no leading or trailing /, no wildcards)")
                return nil
            }
            return topic
        }
    }
}

/// `[mqtt]` and its `[[mqtt.publish]]` filters, checked like the rest of the file.
extension ConfigLoader {
    func readMQTT(_ t: TableReader, regions: Set<String>) -> MQTTConfig? {
        if !t.has("url") { t.diagnostics.error(t.path, "[mqtt] needs url = \"mqtt://host:1883\" (or mqtts://)") }
        if t.has("password") {
            _ = t.value("password")
            t.error("password", "a password is never written in the config: put it in a file readable only by gestured and give password_file")
        }
        var c = MQTTConfig(host: "", port: 0, tls: false)
        MQTTConfig.read(t, SettingContext(loader: self, regions: regions), into: &c)
        // What one key asks of another.
        if (c.certFile == nil) != (c.keyFile == nil), t.has("cert_file") != t.has("key_file") {
            t.error(t.has("cert_file") ? "key_file" : "cert_file", "a client certificate needs both cert_file and key_file")
        }
        let urlRead = c.port != 0
        if urlRead, !c.tls {
            for key in ["ca_file", "cert_file", "key_file"] where t.has(key) { t.error(key, "TLS settings need an mqtts:// url") }
        }
        if urlRead, c.tls, c.caFile == nil, !t.has("ca_file") {
            t.error("url", "mqtts:// needs ca_file (the CA that signed the broker's certificate)")
        }
        if t.has("password_file"), !t.has("username") { t.error("password_file", "a password needs a username") }
        // Commands only where no one between can read or forge them: TLS (the broker checked
        // against ca_file), or this host's own loopback. A username does not help over plain
        // mqtt://: the password and every command would cross the network in clear.
        if urlRead, c.commands, !c.tls, !Self.isLoopback(c.host) {
            t.error("commands", "commands are taken only over mqtts:// or from a broker on a loopback address (127.0.0.0/8, ::1 or localhost); "
                + "\(c.host) is neither, so the commands (and any password) would cross the network in clear: use mqtts:// with ca_file")
        }
        t.finish(expected: MQTTConfig.settingKeys.joined(separator: ", "))
        return urlRead ? c : nil
    }

    /// Whether `host` is this machine's loopback, decided by address, not by how the name
    /// looks: an IPv4 literal in 127.0.0.0/8, the IPv6 literal ::1 (or an IPv4-mapped
    /// ::ffff:127.x.y.z), or the name `localhost`, which /etc/hosts (root's) and systemd's
    /// nss-myhostname map to loopback. Any other name is not loopback, whatever its digits
    /// (`127.example.org` resolves wherever its DNS says).
    static func isLoopback(_ host: String) -> Bool {
        if host == "localhost" { return true }
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 { return UInt32(bigEndian: v4.s_addr) >> 24 == 127 }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, host, &v6) == 1 else { return false }
        let b = withUnsafeBytes(of: &v6) { Array($0) }
        if b[0..<15].allSatisfy({ $0 == 0 }) && b[15] == 1 { return true }
        return b[0..<10].allSatisfy({ $0 == 0 }) && b[10] == 0xff && b[11] == 0xff && b[12] == 127
    }

    struct URLError: Error { var message: String }

    /// `mqtt://host[:port]` (1883) or `mqtts://host[:port]` (8883); IPv6 hosts in brackets.
    static func parseBrokerURL(_ url: String) -> Result<(String, Int, Bool), URLError> {
        let tls: Bool
        let rest: Substring
        if url.hasPrefix("mqtt://") { tls = false; rest = url.dropFirst(7) }
        else if url.hasPrefix("mqtts://") { tls = true; rest = url.dropFirst(8) }
        else { return .failure(URLError(message: "expected mqtt://host[:port] or mqtts://host[:port], found \"\(url)\"")) }
        var host = Substring(rest)
        var port = tls ? 8883 : 1883
        if host.hasSuffix("/") { host = host.dropLast() }
        if host.contains("/") || host.contains("@") {
            return .failure(URLError(message: "expected only host and port (credentials go in username and password_file), found \"\(url)\""))
        }
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return .failure(URLError(message: "unclosed [ in \"\(url)\"")) }
            let after = host[host.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":"), let p = Int(after.dropFirst()), (1...65535).contains(p) else {
                    return .failure(URLError(message: "bad port in \"\(url)\" (1–65535)"))
                }
                port = p
            }
            host = host[host.index(after: host.startIndex)..<close]
        } else if let colon = host.lastIndex(of: ":") {
            guard let p = Int(host[host.index(after: colon)...]), (1...65535).contains(p) else {
                return .failure(URLError(message: "bad port in \"\(url)\" (1–65535)"))
            }
            port = p
            host = host[..<colon]
        }
        if host.isEmpty { return .failure(URLError(message: "no host in \"\(url)\"")) }
        return .success((String(host), port, tls))
    }
}
