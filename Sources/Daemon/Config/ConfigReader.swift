/// Collects errors while a config is read, each located by key path through `KeyLineIndex`.
final class ConfigDiagnostics {
    let file: String
    let index: KeyLineIndex
    private(set) var errors: [ConfigError] = []
    /// `shape = "NAME"` in a binding or sequence step, by key path: checked once the shapes
    /// directory is read (ConfigResolver).
    var shapeReferences: [(key: String, name: String)] = []

    init(file: String, index: KeyLineIndex) {
        self.file = file
        self.index = index
    }

    func error(_ path: String, _ message: String) {
        errors.append(ConfigError(file: file, line: line(of: path), key: path, message: message))
    }

    /// The key's line, or its nearest enclosing key's (a key the index cannot find: one written
    /// inside an inline table, or quoted with escapes).
    private func line(of path: String) -> Int {
        var p = Substring(path)
        while true {
            if let l = index.line(of: String(p)) { return l }
            guard let dot = p.lastIndex(of: ".") else { return 1 }
            p = p[..<dot]
        }
    }

    /// An error located in another file the config names (a shape file).
    func append(_ e: ConfigError) { errors.append(e) }
}

/// Typed, path-tracking access to one TOML table. Every key read is remembered so that
/// `finish()` can report the keys nobody asked for: unknown keys are errors, not silence.
final class TableReader {
    let table: TOMLTable
    let path: String
    let diagnostics: ConfigDiagnostics
    private var seen: Set<String> = []

    init(_ table: TOMLTable, path: String, diagnostics: ConfigDiagnostics) {
        self.table = table
        self.path = path
        self.diagnostics = diagnostics
        // A key is a name too (a udev property, a recognizer): one with a control character is
        // reported here, once, and then passed over by every reader.
        for k in table.keys where ConfigText.controlCharacter(in: k) != nil {
            seen.insert(k)
            diagnostics.error(keyPath(ConfigText.escaped(k)), ConfigText.refusal(ConfigText.controlCharacter(in: k)!))
        }
    }

    var keys: [String] { table.keys.filter { ConfigText.controlCharacter(in: $0) == nil } }

    func keyPath(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    func error(_ key: String, _ message: String) { diagnostics.error(keyPath(key), message) }

    /// Marks a key as handled and returns its raw value.
    func value(_ key: String) -> TOMLValue? {
        seen.insert(key)
        return table[key]
    }

    func has(_ key: String) -> Bool { table[key] != nil }

    private func typeError(_ key: String, _ expected: String, _ v: TOMLValue) {
        error(key, "expected \(expected), found \(v.typeName)")
    }

    /// A one-line string: names, paths, topics, modes — everything but a command's text —
    /// refuse control characters, so no value can carry a line break into a log line, a unit
    /// file or a topic. `text`: free text that may span lines (`shell`).
    func string(_ key: String, text: Bool = false) -> String? {
        guard let v = value(key) else { return nil }
        guard let s = v.string else { typeError(key, "a string", v); return nil }
        if !text, let c = ConfigText.controlCharacter(in: s) { error(key, ConfigText.refusal(c)); return nil }
        return s
    }

    func bool(_ key: String) -> Bool? {
        guard let v = value(key) else { return nil }
        guard let b = v.bool else { typeError(key, "true or false", v); return nil }
        return b
    }

    /// An integer, checked against `range`.
    func int(_ key: String, in range: ClosedRange<Int>) -> Int? {
        guard let v = value(key) else { return nil }
        guard let i = v.int else { typeError(key, "an integer", v); return nil }
        guard range.contains(i) else { error(key, "\(i) is out of range \(range.lowerBound)…\(range.upperBound)"); return nil }
        return i
    }

    /// A number (integer or float), checked against `range`.
    func number(_ key: String, in range: ClosedRange<Double>, unit: String = "") -> Double? {
        guard let v = value(key) else { return nil }
        guard let x = Self.number(v) else { typeError(key, "a number", v); return nil }
        guard x.isFinite else { error(key, "\(x) is not a finite number"); return nil }
        guard range.contains(x) else {
            let u = unit.isEmpty ? "" : " \(unit)"
            error(key, "\(fmt(x)) is out of range \(fmt(range.lowerBound))…\(fmt(range.upperBound))\(u)")
            return nil
        }
        return x
    }

    static func number(_ v: TOMLValue) -> Double? {
        if let d = v.double { return d }
        if let i = v.int { return Double(i) }
        return nil
    }

    /// An array of strings; a single string is accepted where `allowSingle` says so. Each is one
    /// line (`string`) unless `text` (a command's arguments).
    func strings(_ key: String, allowSingle: Bool = false, text: Bool = false) -> [String]? {
        guard let v = value(key) else { return nil }
        if allowSingle, let s = v.string {
            if !text, let c = ConfigText.controlCharacter(in: s) { error(key, ConfigText.refusal(c)); return nil }
            return [s]
        }
        guard let a = v.array else { typeError(key, "an array of strings", v); return nil }
        var out: [String] = []
        for (i, e) in a.enumerated() {
            guard let s = e.string else {
                error(key, "element \(i + 1): expected a string, found \(e.typeName)")
                return nil
            }
            if !text, let c = ConfigText.controlCharacter(in: s) { error(key, "element \(i + 1): " + ConfigText.refusal(c)); return nil }
            out.append(s)
        }
        return out
    }

    func numbers(_ key: String, count: Int) -> [Double]? {
        guard let v = value(key) else { return nil }
        guard let a = v.array else { typeError(key, "an array of \(count) numbers", v); return nil }
        var out: [Double] = []
        for e in a {
            guard let x = Self.number(e) else {
                error(key, "expected an array of \(count) numbers, found an element of type \(e.typeName)")
                return nil
            }
            guard x.isFinite else { error(key, "element \(out.count + 1) (\(x)) is not a finite number"); return nil }
            out.append(x)
        }
        guard out.count == count else { error(key, "expected \(count) numbers, found \(out.count)"); return nil }
        return out
    }

    func table(_ key: String) -> TableReader? {
        guard let v = value(key) else { return nil }
        guard let t = v.table else { typeError(key, "a table", v); return nil }
        return TableReader(t, path: keyPath(key), diagnostics: diagnostics)
    }

    /// `[[key]]` entries, with paths `key[1]`, `key[2]`, … as the line index numbers them.
    func tables(_ key: String) -> [TableReader] {
        guard let v = value(key) else { return [] }
        guard let a = v.array else { typeError(key, "an array of tables ([[\(key)]])", v); return [] }
        var out: [TableReader] = []
        for (i, e) in a.enumerated() {
            let p = "\(keyPath(key))[\(i + 1)]"
            guard let t = e.table else {
                diagnostics.error(p, "expected a table, found \(e.typeName)")
                continue
            }
            out.append(TableReader(t, path: p, diagnostics: diagnostics))
        }
        return out
    }

    /// Reports every key that was never read.
    func finish(expected: String) {
        for k in table.keys.sorted() where !seen.contains(k) {
            error(k, "unknown key (expected \(expected))")
        }
    }
}
