import GestureKit

/// Reading `[modes]`, `[[mode]]`, `[screen]` and `[[sequence]]`.
extension ConfigLoader {
    /// At most this many modes, sequences and steps: a kiosk has a handful; more is a mistake.
    static let maxModes = 32
    static let maxSequences = 16
    static let maxSteps = 16

    /// `[[mode]]` and `[modes] initial`; read before the bindings, which name modes.
    func readModes(_ root: TableReader) -> ModesConfig {
        var c = ModesConfig()
        let tables = root.tables("mode")
        if tables.count > Self.maxModes { root.error("mode", "\(tables.count) modes; at most \(Self.maxModes)") }
        var modes: [KioskMode] = []
        var targets: [(TableReader, String, String)] = []  // (table, key, mode named): checked once all are known
        for t in tables.prefix(Self.maxModes) {
            guard let name = t.string("name") else {
                if !t.has("name") { t.diagnostics.error(t.path, "a [[mode]] needs a name") }
                t.finish(expected: Self.modeKeys)
                continue
            }
            if name.isEmpty { t.error("name", "must not be empty") }
            if modes.contains(where: { $0.name == name }) { t.error("name", "mode \"\(name)\" is defined twice") }
            var m = KioskMode(name: name)
            if let names = t.strings("recognizers") {
                if let bad = names.first(where: { n in !catalog.contains { $0.name == n } }) {
                    t.error("recognizers", "unknown recognizer \"\(bad)\" (known: \(catalog.map(\.name).joined(separator: ", ")))")
                } else {
                    m.recognizers = names
                }
            }
            if let p = t.string("passthrough") {
                switch p {
                case "all": m.appGetsTouches = true
                case "none": m.appGetsTouches = false
                default: t.error("passthrough", "expected \"all\" (the app gets every touch no gesture takes) or \"none\", found \"\(p)\"")
                }
            }
            m.idleTimeout = t.number("idle_timeout", in: 1...604_800, unit: "s")
            m.idleMode = t.string("idle_mode")
            if (m.idleTimeout == nil) != (m.idleMode == nil), !(t.has("idle_timeout") && t.has("idle_mode")) {
                t.error(m.idleMode == nil ? "idle_timeout" : "idle_mode", "idle_timeout and idle_mode go together (e.g. idle_timeout = 300, idle_mode = \"locked\")")
            }
            if let i = m.idleMode { targets.append((t, "idle_mode", i)) }
            m.wakeMode = t.string("wake_mode")
            if let w = m.wakeMode { targets.append((t, "wake_mode", w)) }
            t.finish(expected: Self.modeKeys)
            modes.append(m)
        }
        let names = Set(modes.map(\.name))
        for (t, key, target) in targets where !names.contains(target) {
            t.error(key, unknownMode(target, names))
        }
        if let idle = modes.first(where: { $0.idleMode == $0.name }) {
            root.diagnostics.error("mode", "mode \"\(idle.name)\" goes idle into itself")
        }
        if !modes.isEmpty {
            c.modes = modes
            c.initial = modes[0].name
        }
        if let t = root.table("modes") {
            if let i = t.string("initial") {
                if c.modes.contains(where: { $0.name == i }) { c.initial = i } else { t.error("initial", unknownMode(i, Set(c.names))) }
            }
            t.finish(expected: "initial")
        }
        return c
    }

    private static let modeKeys = "name, recognizers, passthrough, idle_timeout, idle_mode or wake_mode"

    func unknownMode(_ name: String, _ modes: Set<String>) -> String {
        "unknown mode \"\(name)\" (defined: \(modes.sorted().joined(separator: ", ")))"
    }

    /// `in_mode = ["normal", "maintenance"]` (or one name): the modes a binding is active in.
    func readInModes(_ t: TableReader, modes: Set<String>, ok: inout Bool) -> [String]? {
        guard let names = t.strings("in_mode", allowSingle: true) else { return nil }
        if let bad = names.first(where: { !modes.contains($0) }) {
            t.error("in_mode", unknownMode(bad, modes)); ok = false
        } else if names.isEmpty {
            t.error("in_mode", "names no mode: the binding would never be active"); ok = false
        }
        return names
    }

    /// `[screen] state = "/sys/…/dpms"`, `wake = [argv…]`.
    func readScreen(_ t: TableReader) -> ScreenConfig {
        var s = ScreenConfig()
        if let p = t.string("state") {
            if p.hasPrefix("/") { s.state = p } else { t.error("state", "must be an absolute path (e.g. /sys/class/drm/card0-HDMI-A-1/dpms)") }
        }
        if let w = t.strings("wake", text: true) {
            if w.isEmpty || w[0].isEmpty { t.error("wake", "needs at least the program to run") } else { s.wake = .argv(w) }
        }
        t.finish(expected: "state or wake")
        return s
    }

    /// One `[[sequence]]`: name, steps (gesture filters, in order), within, in_mode, cooldown and
    /// one action, as a binding's. `index`: the binding number it runs under.
    /// The steps of a `steps_file`: `steps = [...]` as in `[[sequence]]`, checked the same way,
    /// errors located in that file. Nil when it has errors (in `d`).
    func readStepsFile(_ text: String, path: String, regions: Set<String>, _ d: ConfigDiagnostics) -> [GestureFilter]? {
        let (limit, lines) = ConfigLimits.scan(text, file: path)
        if let e = limit { d.append(e); return nil }
        let root: TOMLTable
        switch Self.toml(text, file: path) {
        case .success(let t): root = t
        case .failure(let e): d.append(e); return nil
        }
        let own = ConfigDiagnostics(file: path, index: lines)
        let t = TableReader(root, path: "", diagnostics: own)
        var ok = true
        var steps: [GestureFilter] = []
        let tables = t.tables("steps")
        if tables.count < 2 || tables.count > Self.maxSteps {
            t.error("steps", "expected 2…\(Self.maxSteps) steps, e.g. steps = [{ gesture = \"tap\", region = \"tl\" }, { gesture = \"tap\", region = \"br\" }]")
            ok = false
        }
        for s in tables {
            if let f = readFilter(s, section: "step", regions: regions, checksShape: true, ok: &ok) { steps.append(f) }
            s.finish(expected: Self.filterKeys)
        }
        t.finish(expected: "steps")
        for e in own.errors { d.append(e) }
        d.shapeReferences += own.shapeReferences
        return ok && own.errors.isEmpty ? steps : nil
    }

    func readSequence(_ t: TableReader, index: Int, regions: Set<String>, modes: Set<String>,
                      taken: [SecretSequence]) -> SecretSequence? {
        var ok = true
        let name = t.string("name")
        if name == nil && !t.has("name") { t.diagnostics.error(t.path, "a [[sequence]] needs a name"); ok = false }
        if let n = name, taken.contains(where: { $0.name == n }) { t.error("name", "sequence \"\(n)\" is defined twice"); ok = false }
        var steps: [GestureFilter] = []
        // The steps are the secret: they may live in a file only the service can read.
        var stepsFile: SecretSequence.StepsFile? = nil
        if let p = t.string("steps_file") {
            if !p.hasPrefix("/") { t.error("steps_file", "must be an absolute path"); ok = false }
            if t.has("steps") { t.error("steps_file", "give steps or steps_file, not both"); ok = false }
            stepsFile = .init(path: p, key: t.keyPath("steps_file"), credential: ServiceGrant.stepsCredential(index))
        }
        let stepTables = t.has("steps_file") ? [] : t.tables("steps")
        if !t.has("steps_file"), stepTables.count < 2 || stepTables.count > Self.maxSteps {
            if t.has("steps") || stepTables.isEmpty {
                t.error("steps", "expected 2…\(Self.maxSteps) steps, e.g. [{ gesture = \"tap\", region = \"tl\" }, { gesture = \"tap\", region = \"br\" }]")
            }
            ok = false
        }
        for s in stepTables {
            if let f = readFilter(s, section: "step", regions: regions, checksShape: true, ok: &ok) { steps.append(f) }
            s.finish(expected: Self.filterKeys)
        }
        let within = t.number("within", in: 0.1...600, unit: "s") ?? 3
        let inModes = readInModes(t, modes: modes, ok: &ok)
        let cooldown = t.number("cooldown", in: 0...86_400, unit: "s") ?? 0
        let action = readAction(t, modes: modes, ok: &ok)
        t.finish(expected: "name, steps, steps_file, within, in_mode, cooldown, run, shell, keys, click, switch_mode or for")
        // With steps_file, the last step is known once the file is read (ConfigResolver).
        guard ok, let n = name, let last = steps.last ?? stepsFile.map({ _ in GestureFilter(gesture: .tap) }), let a = action else { return nil }
        let binding = Binding(index: index, filter: last, step: nil, stepOf: nil, action: a, timeout: 10, cooldown: cooldown,
                              maxConcurrent: 1, inModes: inModes)
        return SecretSequence(name: n, steps: steps, within: within, binding: binding, stepsFile: stepsFile)
    }
}
