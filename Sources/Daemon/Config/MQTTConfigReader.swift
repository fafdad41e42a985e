/// `[mqtt]` and its `[[mqtt.publish]]` filters, checked like the rest of the file.
extension ConfigLoader {
    static let mqttKeys = "url, ca_file, cert_file, key_file, username, password_file, client_id, topic, fleet_topic, qos, max_queue, "
        + "reconnect_max, keepalive, homeassistant, homeassistant_prefix or publish"

    func readMQTT(_ t: TableReader, regions: Set<String>) -> MQTTConfig? {
        var config: MQTTConfig? = nil
        if let url = t.string("url") {
            switch Self.parseBrokerURL(url) {
            case .success(let (host, port, tls)): config = MQTTConfig(host: host, port: port, tls: tls)
            case .failure(let e): t.error("url", e.message)
            }
        } else if !t.has("url") {
            t.diagnostics.error(t.path, "[mqtt] needs url = \"mqtt://host:1883\" (or mqtts://)")
        }
        var c = config ?? MQTTConfig(host: "", port: 0, tls: false)
        for key in ["ca_file", "cert_file", "key_file"] {
            guard let p = t.string(key) else { continue }
            if !p.hasPrefix("/") { t.error(key, "must be an absolute path"); continue }
            switch key {
            case "ca_file": c.caFile = p
            case "cert_file": c.certFile = p
            default: c.keyFile = p
            }
        }
        if (c.certFile == nil) != (c.keyFile == nil), t.has("cert_file") != t.has("key_file") {
            t.error(t.has("cert_file") ? "key_file" : "cert_file", "a client certificate needs both cert_file and key_file")
        }
        if config?.tls == false {
            for key in ["ca_file", "cert_file", "key_file"] where t.has(key) { t.error(key, "TLS settings need an mqtts:// url") }
        }
        if config?.tls == true, c.caFile == nil, !t.has("ca_file") {
            t.error("url", "mqtts:// needs ca_file (the CA that signed the broker's certificate)")
        }
        if let u = t.string("username") {
            if u.isEmpty { t.error("username", "must not be empty") } else { c.username = u }
        }
        if t.has("password") {
            _ = t.value("password")
            t.error("password", "a password is never written in the config: put it in a file readable only by gestured and give password_file")
        }
        if let p = t.string("password_file") {
            if !p.hasPrefix("/") { t.error("password_file", "must be an absolute path") } else { c.passwordFile = p }
            if !t.has("username") { t.error("password_file", "a password needs a username") }
        }
        if let id = t.string("client_id") {
            if id.isEmpty || id.utf8.count > 23 * 10 { t.error("client_id", "must be 1–230 bytes") } else { c.clientID = id }
        }
        if let on = t.bool("homeassistant") { c.homeAssistant = on }
        for (key, example) in [("topic", "gestured/kiosk17"), ("fleet_topic", "gestured/all/command"), ("homeassistant_prefix", "homeassistant")] {
            guard let topic = t.string(key) else { continue }
            if topic.isEmpty || topic.hasPrefix("/") || topic.hasSuffix("/") || topic.contains("+") || topic.contains("#") {
                t.error(key, "expected a topic such as \"\(example)\" (no leading or trailing /, no wildcards)")
                continue
            }
            switch key {
            case "topic": c.topic = topic
            case "fleet_topic": c.fleetTopic = topic
            default: c.homeAssistantPrefix = topic
            }
        }
        if let q = t.int("qos", in: 0...1) { c.qos = Int32(q) }
        if let n = t.int("max_queue", in: 1...1_000_000) { c.maxQueue = n }
        if let s = t.number("reconnect_max", in: 1...3600, unit: "s") { c.reconnectMax = s }
        if let s = t.int("keepalive", in: 5...3600) { c.keepalive = Int32(s) }
        var ok = true
        for f in t.tables("publish") {
            if let filter = readFilter(f, section: "[[mqtt.publish]]", regions: regions, ok: &ok) { c.publish.append(filter) }
            f.finish(expected: Self.filterKeys)
        }
        t.finish(expected: Self.mqttKeys)
        return config == nil ? nil : c
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
