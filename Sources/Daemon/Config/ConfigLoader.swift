import Evdev
import GestureKit

/// Reads and validates a configuration file. Every problem is collected (not just the first),
/// each with file, line and key; a config with any problem is rejected as a whole.
public struct ConfigLoader {
    public var catalog: [RecognizerSpec]

    public init(catalog: [RecognizerSpec] = RecognizerCatalog.all) {
        self.catalog = catalog
    }

    public func load(path: String) throws -> DaemonConfig {
        guard let data = FileSystem.contents(atPath: path, maxBytes: ConfigLimits.maxFileBytes) else {
            throw ConfigErrors(errors: [ConfigError(file: path, line: 0, key: "", message: "cannot read the file")])
        }
        guard data.count <= ConfigLimits.maxFileBytes else {
            throw ConfigErrors(errors: [ConfigError(file: path, line: 0, key: "", message: "file larger than \(ConfigLimits.maxFileBytes >> 10) KiB (the limit)")])
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            throw ConfigErrors(errors: [ConfigError(file: path, line: Self.firstInvalidUTF8Line(data), key: "", message: "not UTF-8 text")])
        }
        return try parse(text, file: path)
    }

    /// The line holding the first byte sequence that is not UTF-8.
    static func firstInvalidUTF8Line(_ data: [UInt8]) -> Int {
        var line = 1
        for part in data.split(separator: 10, omittingEmptySubsequences: false) {
            if String(validating: part, as: UTF8.self) == nil { return line }
            line += 1
        }
        return line
    }

    /// Reads `text`, then resolves what it names on this system (ConfigResolver); throws every
    /// problem of both steps together.
    public func parse(_ text: String, file: String) throws -> DaemonConfig {
        var (config, diagnostics) = try read(text, file: file)
        resolve(&config, diagnostics)
        if !diagnostics.errors.isEmpty { throw ConfigErrors(errors: diagnostics.errors) }
        return config
    }

    /// The text's TOML, or its syntax error located in `file` (the config, a steps file).
    static func toml(_ text: String, file: String) -> Result<TOMLTable, ConfigError> {
        do {
            return .success(try TOMLParser.parse(text))
        } catch {
            return .failure(ConfigError(file: file, line: error.line, key: "", message: "syntax error at column \(error.column): \(error.message)"))
        }
    }

    /// The TOML text checked and turned into a config, without I/O: the errors are collected in
    /// the diagnostics returned; only text that does not parse as TOML at all throws.
    func read(_ text: String, file: String) throws -> (DaemonConfig, ConfigDiagnostics) {
        let (limit, lines) = ConfigLimits.scan(text, file: file)
        if let e = limit { throw ConfigErrors(errors: [e]) }
        let root: TOMLTable
        switch Self.toml(text, file: file) {
        case .success(let t): root = t
        case .failure(let e): throw ConfigErrors(errors: [e])
        }
        let diagnostics = ConfigDiagnostics(file: file, index: lines)
        let reader = TableReader(root, path: "", diagnostics: diagnostics)
        var config = DaemonConfig(file: file)

        if let s = reader.table("socket") { config.socket = readSocket(s) }
        config.regions = readRegions(reader.tables("region"))
        let regionNames = Set(config.regions.map(\.name))
        if let d = reader.table("defaults") {
            config.defaults = readSettings(d, regions: regionNames, isDefaults: true).settings
        }
        for (i, d) in reader.tables("device").enumerated() {
            let (settings, match) = readSettings(d, regions: regionNames, isDefaults: false)
            config.devices.append(DeviceSection(match: match, settings: settings, index: i + 1))
        }
        if let s = reader.table("shapes") { config.shapes = readShapes(s, configFile: file) }
        config.modes = readModes(reader)
        let modeNames = Set(config.modes.names)
        let binds = reader.tables("bind")
        for (i, b) in binds.enumerated() {
            if let binding = readBinding(b, index: i + 1, regions: regionNames, modes: modeNames) {
                config.bindings.append(binding)
            }
        }
        let sequences = reader.tables("sequence")
        if sequences.count > Self.maxSequences { reader.error("sequence", "\(sequences.count) sequences; at most \(Self.maxSequences)") }
        for (i, q) in sequences.prefix(Self.maxSequences).enumerated() {
            // A sequence's action runs as the binding numbered after every [[bind]].
            if let seq = readSequence(q, index: binds.count + i + 1, regions: regionNames, modes: modeNames,
                                      taken: config.modes.sequences) {
                config.modes.sequences.append(seq)
            }
        }
        if let s = reader.table("screen") { config.modes.screen = readScreen(s) }
        if let m = reader.table("mqtt") { config.mqtt = readMQTT(m, regions: regionNames) }
        reader.finish(expected: "socket, defaults, device, region, shapes, bind, mode, modes, sequence, screen or mqtt")
        return (config, diagnostics)
    }

    // MARK: [socket]

    private func readSocket(_ t: TableReader) -> SocketConfig {
        var s = SocketConfig()
        SocketConfig.read(t, SettingContext(loader: self, regions: []), into: &s)
        t.finish(expected: SocketConfig.settingKeys.joined(separator: ", "))
        return s
    }

    // MARK: [[region]]

    private func readRegions(_ tables: [TableReader]) -> [Region] {
        var regions: [Region] = []
        for t in tables {
            let name = t.string("name")
            if name == nil && !t.has("name") { t.error("name", "a [[region]] needs a name") }
            if let n = name, regions.contains(where: { $0.name == n }) { t.error("name", "region \"\(n)\" is defined twice") }
            var rect: Rect? = nil
            if let r = t.numbers("rect", count: 4) {
                if r.contains(where: { $0 < 0 || $0 > 1 }) {
                    t.error("rect", "coordinates are normalized: each must be within 0…1")
                } else if r[0] >= r[2] || r[1] >= r[3] {
                    t.error("rect", "expected [x0, y0, x1, y1] with x0 < x1 and y0 < y1")
                } else {
                    rect = Rect(minX: r[0], minY: r[1], maxX: r[2], maxY: r[3])
                }
            } else if !t.has("rect") {
                t.error("rect", "a [[region]] needs rect = [x0, y0, x1, y1]")
            }
            t.finish(expected: "name or rect")
            if let n = name, !n.isEmpty, let r = rect { regions.append(Region(name: n, rect: r)) }
        }
        return regions
    }

    // MARK: [defaults] and [[device]]

    private func readSettings(_ t: TableReader, regions: Set<String>, isDefaults: Bool) -> (settings: DeviceSettings, match: DeviceMatch) {
        let matchKeys = DeviceSettings.matchKeys
        var m = DeviceMatch()
        if isDefaults {
            for k in matchKeys where t.has(k) {
                _ = t.value(k)
                t.error(k, "matching keys belong in a [[device]] section, not in [defaults]")
            }
        } else {
            m = readMatch(t)
            if m.isEmpty && !matchKeys.contains(where: t.has) {
                t.diagnostics.error(t.path, "a [[device]] section needs at least one of name, vendor_product, kind or property")
            }
        }
        var s = DeviceSettings()
        DeviceSettings.read(t, SettingContext(loader: self, regions: regions), into: &s)
        let keys = DeviceSettings.settingKeys.filter { $0 != DeviceSettings.parameterTablesKey }
        let expected = (isDefaults ? [] : matchKeys) + keys
        t.finish(expected: expected.joined(separator: ", ") + ", or a recognizer's parameter table (\(knownNames))")
        return (s, m)
    }

    /// A table of recognizer → the recognizers it relates to (`requires_failure_of`, `yields_to`).
    func readRelation(_ r: TableReader, selfMessage: String) -> [String: [String]] {
        var out: [String: [String]] = [:]
        for k in r.keys {
            guard checkRecognizer(k, r, key: k) else { _ = r.value(k); continue }
            if let names = r.strings(k, allowSingle: true) {
                if let bad = names.first(where: { spec($0) == nil }) {
                    r.error(k, "unknown recognizer \"\(bad)\" (known: \(knownNames))")
                } else if names.contains(k) {
                    r.error(k, selfMessage)
                } else {
                    out[k] = names
                }
            }
        }
        return out
    }

    /// A recognizer that yields to one that waits for it (through `requires_failure_of` or
    /// `yields_to`, directly or by a chain) would wait for itself: a cycle. One that both yields to
    /// and requires the failure of the same recognizer must choose.
    func checkYields(_ yields: [String: [String]], requires: [String: [String]], _ r: TableReader) {
        func waitsFor(_ a: String) -> [String] { (requires[a] ?? []) + (yields[a] ?? []) }
        /// A chain of "waits for" steps from `a` to `goal`, both included.
        func chain(_ a: String, to goal: String, seen: inout Set<String>) -> [String]? {
            if a == goal { return [a] }
            guard seen.insert(a).inserted else { return nil }
            for b in waitsFor(a) { if let rest = chain(b, to: goal, seen: &seen) { return [a] + rest } }
            return nil
        }
        for (k, targets) in yields.sorted(by: { $0.key < $1.key }) {
            if let both = targets.first(where: { (requires[k] ?? []).contains($0) }) {
                r.error(k, "\(k) both yields to and requires the failure of \(both): choose one")
                continue
            }
            for y in targets {
                var seen: Set<String> = []
                if let c = chain(y, to: k, seen: &seen) {
                    r.error(k, "\(k) yields to \(y), which waits for \(k) (\(([k] + c).joined(separator: " → "))): a cycle")
                    break
                }
            }
        }
    }

    private func readMatch(_ t: TableReader) -> DeviceMatch {
        var m = DeviceMatch()
        if let n = t.string("name") { m.name = n }
        if let vp = t.string("vendor_product") {
            let parts = vp.split(separator: ":")
            if parts.count == 2, let v = UInt16(parts[0], radix: 16), let p = UInt16(parts[1], radix: 16) {
                m.vendorProduct = (v, p)
            } else {
                t.error("vendor_product", "expected \"vvvv:pppp\" in hexadecimal, e.g. \"056a:00e6\"")
            }
        }
        if let k = t.string("kind") {
            if let kind = DeviceKindName(rawValue: k) { m.kind = kind } else { t.error("kind", "expected \"touchscreen\" or \"touchpad\", found \"\(k)\"") }
        }
        if let p = t.table("property") {
            for k in p.keys { if let v = p.string(k) { m.properties[k] = v } }
        }
        return m
    }

    /// A recognizer's parameters, checked against what it declares: the one generic rule for all.
    func readParameters(_ t: TableReader, spec: RecognizerSpec) -> [String: Double] {
        var out: [String: Double] = [:]
        for k in t.keys {
            guard let p = spec.parameter(named: k) else {
                // A key whose declaration names it under another key (units joined the names):
                // say what it is called.
                if let now = spec.parameter(formerlyNamed: k) {
                    t.error(k, "`\(k)` is now `\(now.key)`")
                    _ = t.value(k)
                }
                continue
            }
            if p.isInteger {
                guard let v = t.value(k) else { continue }
                guard let i = v.int else { t.error(k, "expected an integer, found \(v.typeName)"); continue }
                let x = Double(i)
                guard p.range.contains(x) else { t.error(k, "\(i) is out of range \(fmt(p.range.lowerBound))…\(fmt(p.range.upperBound))\(p.unit.isEmpty ? "" : " " + p.unit)"); continue }
                out[k] = x
            } else if let x = t.number(k, in: p.range, unit: p.unit) {
                out[k] = x
            }
        }
        let names = spec.parameters.map(\.key).joined(separator: ", ")
        t.finish(expected: "a parameter of \(spec.name): \(names.isEmpty ? "it has none" : names)")
        return out
    }

    func readGroups(_ v: TOMLValue, _ t: TableReader) -> [[String]]? {
        guard let a = v.array else { t.error("simultaneous", "expected an array of recognizer groups, e.g. [[\"pan\", \"pinch\"]]"); return nil }
        var groups: [[String]] = []
        for g in a {
            guard let ga = g.array else { t.error("simultaneous", "each group is an array of recognizer names"); return nil }
            var names: [String] = []
            for e in ga {
                guard let n = e.string else { t.error("simultaneous", "each group is an array of recognizer names"); return nil }
                guard spec(n) != nil else { t.error("simultaneous", "unknown recognizer \"\(n)\" (known: \(knownNames))"); return nil }
                names.append(n)
            }
            if names.count < 2 { t.error("simultaneous", "a group needs at least two recognizers"); return nil }
            groups.append(names)
        }
        return groups
    }

    /// `exclude = ["keyboard"]` (every recognizer) or `exclude = { circle = ["buttons"] }`.
    func readExclude(_ v: TOMLValue, _ t: TableReader, regions: Set<String>) -> [String: [String]]? {
        func check(_ names: [String], _ key: String) -> Bool {
            if let bad = names.first(where: { !regions.contains($0) }) {
                t.diagnostics.error(key, "unknown region \"\(bad)\" (defined: \(regions.sorted().joined(separator: ", ")))")
                return false
            }
            return true
        }
        if v.array != nil {
            guard let names = t.strings("exclude") else { return nil }
            return check(names, t.keyPath("exclude")) ? ["*": names] : nil
        }
        guard let table = t.table("exclude") else { return nil }
        var out: [String: [String]] = [:]
        for k in table.keys {
            if k != "*" && spec(k) == nil { _ = table.value(k); table.error(k, "unknown recognizer (known: \(knownNames), or \"*\")"); continue }
            if let names = table.strings(k, allowSingle: true), check(names, table.keyPath(k)) { out[k] = names }
        }
        return out
    }

    // MARK: [[bind]]

    private func readBinding(_ t: TableReader, index: Int, regions: Set<String>, modes: Set<String>) -> Binding? {
        var ok = true
        let filter = readFilter(t, section: "[[bind]]", regions: regions, checksShape: true, ok: &ok)
        let inModes = readInModes(t, modes: modes, ok: &ok)
        let gesture = filter?.gesture

        let step = t.number("step", in: 1e-6...1e9)
        var stepOf: StepQuantity? = nil
        if let s = t.string("step_of") {
            stepOf = StepQuantity(rawValue: s)
            if stepOf == nil {
                t.error("step_of", "unknown quantity \"\(s)\" (known: \(StepQuantity.allCases.map(\.rawValue).joined(separator: ", ")))"); ok = false
            } else if let q = stepOf, let g = gesture, !q.gestures.contains(g) {
                t.error("step_of", "\(g.rawValue) does not report \(s) (it is reported by \(q.gestures.map(\.rawValue).joined(separator: ", ")))"); ok = false
            }
        }
        if (step == nil) != (stepOf == nil), !(t.has("step") && t.has("step_of")) {
            t.error(step == nil ? "step_of" : "step", "step and step_of go together (e.g. step = 10, step_of = \"translation_mm\")"); ok = false
        }

        let action = readAction(t, modes: modes, ok: &ok)

        let timeout = t.number("timeout", in: 0.001...86_400, unit: "s") ?? 10
        let cooldown = t.number("cooldown", in: 0...86_400, unit: "s") ?? 0
        let maxConcurrent = t.int("max_concurrent", in: 1...64) ?? 1
        if let a = action, !a.isCommand {
            for k in ["timeout", "max_concurrent"] where t.has(k) {
                t.error(k, "applies to commands (run, shell) only; keys, click and switch_mode act at once"); ok = false
            }
        }
        t.finish(expected: Self.filterKeys + ", in_mode, step, step_of, run, shell, keys, click, switch_mode, for, timeout, cooldown or max_concurrent")

        guard ok, var f = filter, let act = action else { return nil }
        if !t.has("phase") { f.phases = GestureFilter.defaultPhases(f.gesture, stepped: step != nil) }
        return Binding(
            index: index, filter: f, step: step, stepOf: stepOf,
            action: act, timeout: timeout, cooldown: cooldown, maxConcurrent: maxConcurrent, inModes: inModes)
    }

    /// The keys a gesture filter reads, for `finish(expected:)` lists.
    static let filterKeys = "gesture, device, region, direction, edge, fingers, count, phase, shape"

    /// A gesture and its conditions (`[[bind]]`, `[[mqtt.publish]]`): gesture, device, region,
    /// direction, edge, fingers, count, phase, shape. Nil (and `ok` false) when any of them is wrong.
    func readFilter(_ t: TableReader, section: String, regions: Set<String>, checksShape: Bool = false, ok: inout Bool) -> GestureFilter? {
        var gesture: GestureKind? = nil
        if let g = t.string("gesture") {
            gesture = GestureKind(rawValue: g)
            if gesture == nil { t.error("gesture", "unknown gesture \"\(g)\" (known: \(GestureKind.allCases.map(\.rawValue).joined(separator: ", ")))"); ok = false }
        } else if !t.has("gesture") {
            t.diagnostics.error(t.path, "a \(section) needs a gesture")
            ok = false
        } else { ok = false }

        let device = t.string("device")
        var region: String? = nil
        if let r = t.string("region") {
            if regions.contains(r) { region = r } else { t.error("region", "unknown region \"\(r)\" (defined: \(regions.sorted().joined(separator: ", ")))"); ok = false }
        }
        let direction: Direction? = enumValue(t, "direction", ok: &ok)
        let edge: Edge? = enumValue(t, "edge", ok: &ok)
        let fingers = t.int("fingers", in: 1...10)
        let count = t.int("count", in: 1...5)
        let shape = t.string("shape")
        if let s = shape {
            if gesture != .shape {
                t.error("shape", "only gesture = \"shape\" reports a shape"); ok = false
            } else if checksShape {
                t.diagnostics.shapeReferences.append((t.keyPath("shape"), s))
            }
        }

        var phases: [GesturePhase]? = nil
        if let ps = t.strings("phase", allowSingle: true) {
            var out: [GesturePhase] = []
            for p in ps {
                guard let phase = GesturePhase(rawValue: p) else {
                    t.error("phase", "unknown phase \"\(p)\" (known: \(GesturePhase.allCases.map(\.rawValue).joined(separator: ", ")))"); ok = false; break
                }
                out.append(phase)
            }
            if let g = gesture, ok {
                if g.isContinuous, out.contains(.recognized) {
                    t.error("phase", "\(g.rawValue) is continuous: its phases are began, changed, ended and cancelled"); ok = false
                } else if !g.isContinuous, out.contains(where: { $0 != .recognized }) {
                    t.error("phase", "\(g.rawValue) is discrete: its only phase is recognized"); ok = false
                }
            }
            phases = out
        }
        guard ok, let g = gesture else { return nil }
        var filter = GestureFilter(gesture: g, device: device, region: region, direction: direction, edge: edge, fingers: fingers, count: count, phases: phases)
        filter.shape = shape
        return filter
    }

    /// A binding's one action: run, shell, keys, click or switch_mode.
    private static let actionKeys = ["run", "shell", "keys", "click", "switch_mode"]
    /// At most this many chords in one `keys` list.
    static let maxChords = 32

    func readAction(_ t: TableReader, modes: Set<String>, ok: inout Bool) -> BoundAction? {
        if t.has("for") && !t.has("switch_mode") {
            _ = t.value("for")
            t.error("for", "applies to switch_mode only (switch_mode = \"maintenance\", for = 300: back after 300 s)"); ok = false
        }
        let given = Self.actionKeys.filter(t.has)
        guard given.count <= 1 else {
            for k in given { _ = t.value(k) }
            let message = given == ["run", "shell"]
                ? "give either run = [argv…] or shell = \"…\", not both"
                : "one action per [[bind]], found \(given.joined(separator: " and ")) (two [[bind]]s on the same gesture do both)"
            t.error(given[1], message); ok = false
            return nil
        }
        guard let key = given.first else {
            t.diagnostics.error(t.path, "needs an action: run = [argv…] or shell = \"…\", keys = \"ctrl+r\", click = \"right\" or switch_mode = \"…\""); ok = false
            return nil
        }
        var action: BoundAction? = nil
        switch key {
        case "run":
            if let r = t.strings("run", text: true) {
                if r.isEmpty || r[0].isEmpty { t.error("run", "needs at least the program to run") } else { action = .command(.argv(r)) }
            }
        case "shell":
            if let s = t.string("shell", text: true) {
                if s.isEmpty { t.error("shell", "must not be empty") } else { action = .command(.shell(s)) }
            }
        case "keys":
            if let texts = t.strings("keys", allowSingle: true) {
                if texts.isEmpty {
                    t.error("keys", "needs at least one chord, e.g. \"ctrl+r\" or [\"ctrl+l\", \"f5\"]")
                } else if texts.count > Self.maxChords {
                    t.error("keys", "\(texts.count) chords; at most \(Self.maxChords) in one binding")
                } else {
                    var chords: [KeyChord] = []
                    for text in texts {
                        do throws(KeyChordError) { chords.append(try KeyChord(parsing: text)) } catch { t.error("keys", error.description); break }
                    }
                    if chords.count == texts.count { action = .keys(chords) }
                }
            }
        case "switch_mode":
            if let m = t.string("switch_mode") {
                let seconds = t.number("for", in: 1...604_800, unit: "s")
                if !modes.contains(m) { t.error("switch_mode", unknownMode(m, modes)) } else if !t.has("for") || seconds != nil { action = .switchMode(m, for: seconds) }
            }
        default:
            if let s = t.string("click") {
                if let button = PointerButton(rawValue: s.lowercased()) {
                    action = .click(button)
                } else {
                    t.error("click", "unknown button \"\(s)\" (known: \(PointerButton.allCases.map(\.rawValue).joined(separator: ", ")))")
                }
            }
        }
        if action == nil { ok = false }
        return action
    }

    func enumValue<E: RawRepresentable & CaseIterable>(_ t: TableReader, _ key: String, ok: inout Bool) -> E? where E.RawValue == String {
        guard let s = t.string(key) else { return nil }
        guard let v = E(rawValue: s) else {
            t.error(key, "unknown \(key) \"\(s)\" (known: \(E.allCases.map(\.rawValue).joined(separator: ", ")))")
            ok = false
            return nil
        }
        return v
    }

    // MARK: helpers

    func spec(_ name: String) -> RecognizerSpec? { catalog.first { $0.name == name } }

    private func checkRecognizer(_ name: String, _ t: TableReader, key: String) -> Bool {
        if spec(name) != nil { return true }
        t.error(key, "unknown recognizer (known: \(knownNames))")
        return false
    }

    var knownNames: String { catalog.map(\.name).joined(separator: ", ") }
}

/// A config value in a message or explanation: up to 9 decimals, no trailing zeros ("0.35", "3").
func fmt(_ x: Double) -> String { DecimalText.string(x, places: 9) }
