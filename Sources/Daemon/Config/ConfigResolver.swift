import GestureKit
import Evdev
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
        let regions = Set(config.regions.map(\.name))
        for i in config.modes.sequences.indices { resolveSteps(&config.modes.sequences[i], regions: regions, d) }
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

    /// A sequence's `steps_file`: readable by no one but its owner (the steps are the secret, and
    /// the config is world-readable), then read — inside the unit from the credential systemd
    /// made of it as root (LoadCredential=, written by the generator), else from the file.
    private func resolveSteps(_ q: inout SecretSequence, regions: Set<String>, _ d: ConfigDiagnostics) {
        guard let file = q.stepsFile else { return }
        var st = stat()
        guard stat(file.path, &st) == 0 else { d.error(file.key, "cannot read \(file.path): \(Errno.current)"); return }
        let mode = st.st_mode & 0o777
        if mode & 0o077 != 0 {
            let who = mode & 0o070 != 0 ? (mode & 0o007 != 0 ? "its group and others" : "its group") : "others"
            d.error(file.key, "\(file.path) is open to \(who) (mode \(String(mode, radix: 8))): the steps are the secret; "
                + "make it readable by its owner only (chmod 600; systemd hands it to the service)")
            return
        }
        let handed = ProcessEnvironment.current["CREDENTIALS_DIRECTORY"].map { $0 + "/" + file.credential }
        let p = handed.flatMap { access($0, F_OK) == 0 ? $0 : nil } ?? file.path
        let bytes: [UInt8]
        switch FileSystem.regularFile(atPath: p, maxBytes: SecretSequence.maxStepsFileBytes) {
        case .success(let b): bytes = b
        case .failure(let e): d.error(file.key, "cannot read \(p): \(e)"); return
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { d.error(file.key, "\(p): not UTF-8 text"); return }
        guard let steps = readStepsFile(text, path: file.path, regions: regions, d), let last = steps.last else { return }
        q.steps = steps
        q.binding.filter = last
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
