import GestureKit
import Glibc

/// The step after reading that asks the system about what the config names: the socket's group,
/// the taught shapes' directory (and the shapes bindings name), the MQTT files. Kept apart so
/// that reading is a function of the text alone.
extension ConfigLoader {
    func resolve(_ config: inout DaemonConfig, _ d: ConfigDiagnostics) {
        if let g = config.socket.group, !SystemGroup.exists(g) {
            d.error("socket.group", "no group \"\(g)\" on this system")
        }
        if let g = config.socket.controlGroup, !SystemGroup.exists(g) {
            d.error("socket.control_group", "no group \"\(g)\" on this system")
        }
        resolveShapes(&config.shapes, d)
        let taught = config.shapes.names
        for (key, name) in d.shapeReferences where !taught.contains(name) {
            d.error(key, "unknown shape \"\(name)\" (taught: \(taught.isEmpty ? "none; see [shapes] dir" : taught.sorted().joined(separator: ", ")))")
        }
        if var m = config.mqtt {
            resolveMQTT(&m, d)
            config.mqtt = m
        }
    }

    /// Every `*.shape` file in the directory, with `[shapes.NAME]`'s settings laid over.
    private func resolveShapes(_ config: inout ShapesConfig, _ d: ConfigDiagnostics) {
        if let dir = config.directory {
            let (shapes, errors) = ShapeLibrary.load(directory: dir)
            if errors.count == 1, errors[0].file == dir { d.error("shapes.dir", "\(dir): \(errors[0].message)") }
            for e in errors where e.file != dir { d.append(e) }
            config.shapes = shapes
        }
        for (name, set) in config.settings.sorted(by: { $0.key < $1.key }) {
            guard let i = config.shapes.firstIndex(where: { $0.name == name }) else {
                d.error("shapes.\(name)", "no shape \"\(name)\" in \(config.directory ?? "the shapes directory") (found: \(config.shapes.map(\.name).joined(separator: ", ")))")
                continue
            }
            if let v = set.threshold {
                config.shapes[i].threshold = v
                config.shapes[i].thresholdOrigin = .set
            }
            if let v = set.rotate { config.shapes[i].rotate = v }
        }
    }

    /// The TLS files must be readable; the password is the password file's first line.
    private func resolveMQTT(_ m: inout MQTTConfig, _ d: ConfigDiagnostics) {
        for (key, path) in [("ca_file", m.caFile), ("cert_file", m.certFile), ("key_file", m.keyFile)] {
            if let p = path, access(p, R_OK) != 0 { d.error("mqtt.\(key)", "cannot read \(p)") }
        }
        guard let file = m.passwordFile else { return }
        // Inside the unit, systemd has read the file as root and handed it over (LoadCredential=).
        let handed = ProcessEnvironment.current["CREDENTIALS_DIRECTORY"].map { $0 + "/" + ServiceGrant.passwordCredential }
        let p = handed.flatMap { access($0, F_OK) == 0 ? $0 : nil } ?? file
        let bytes: [UInt8]
        switch FileSystem.regularFile(atPath: p, maxBytes: MQTTConfig.maxPasswordFileBytes) {
        case .success(let b): bytes = b
        case .failure(let e): d.error("mqtt.password_file", "cannot read \(p): \(e)"); return
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            d.error("mqtt.password_file", "\(p): not UTF-8 text")
            return
        }
        let line = text.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
        if line.isEmpty { d.error("mqtt.password_file", "\(p): the first line (the password) is empty") } else { m.password = line }
    }
}
