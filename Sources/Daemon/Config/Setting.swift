import GestureKit

/// How a key given in a later section combines with the same key from an earlier one.
public enum SettingMerge: Sendable {
    /// `[defaults]` then each matching `[[device]]`: a key a later section gives replaces it.
    case laterWins
    /// A table of tables (`[defaults.circle]`): merged key by key, a later value replacing.
    case byKey
    /// The table exists once (`[socket]`, `[mqtt]`): nothing to combine.
    case single
}

/// What a setting's reader may consult besides its own table: the recognizers and the regions
/// the file defines.
struct SettingContext {
    let loader: ConfigLoader
    let regions: Set<String>
}

/// One key of a config table, declared once the way a recognizer's `Parameter` is: its key, the
/// type and range it takes, the unit, how sections merge, a one-sentence summary, and the three
/// things generated from it: reading (with errors by file, line and key), overlaying a later
/// section, and `check-config`'s words for the effective value.
public struct Setting<Section>: Sendable {
    public let key: String
    /// What the key takes, in words: "an integer 0…359", "true or false".
    public let type: String
    public let unit: String
    public let merge: SettingMerge
    public let summary: String
    let read: @Sendable (TableReader, SettingContext, inout Section) -> Void
    let overlay: @Sendable (inout Section, Section) -> Void
    let describe: @Sendable (Section, [RecognizerSpec]) -> [String]

    /// A setting whose reading, merging and words are its own (a table of tables); the others
    /// below are made through this one.
    init(_ key: String, type: String, unit: String = "", merge: SettingMerge, _ summary: String,
         read: @escaping @Sendable (TableReader, SettingContext, inout Section) -> Void,
         overlay: @escaping @Sendable (inout Section, Section) -> Void,
         describe: @escaping @Sendable (Section, [RecognizerSpec]) -> [String] = { _, _ in [] }) {
        self.key = key
        self.type = type
        self.unit = unit
        self.merge = merge
        self.summary = summary
        self.read = read
        self.overlay = overlay
        self.describe = describe
    }

    /// A field that is nil until a section gives it: `read` turns the table's value into one (or
    /// reports why not and returns nil), and a later section's value replaces an earlier one.
    init<T>(_ key: String, _ field: WritableKeyPath<Section, T?> & Sendable, type: String, unit: String = "", _ summary: String,
            read: @escaping @Sendable (TableReader, SettingContext, Section) -> T?,
            describe: @escaping @Sendable (T?, Section, [RecognizerSpec]) -> [String]) {
        self.init(key, type: type, unit: unit, merge: .laterWins, summary,
                  read: { t, c, s in if let v = read(t, c, s) { s[keyPath: field] = v } },
                  overlay: { s, later in if let v = later[keyPath: field] { s[keyPath: field] = v } },
                  describe: { s, catalog in describe(s[keyPath: field], s, catalog) })
    }

    /// A field of a table given once, holding its default until the key is given.
    init<T>(_ key: String, once field: WritableKeyPath<Section, T> & Sendable, type: String, unit: String = "", _ summary: String,
            read: @escaping @Sendable (TableReader, SettingContext, Section) -> T?,
            describe: @escaping @Sendable (T, Section) -> [String]) {
        self.init(key, type: type, unit: unit, merge: .single, summary,
                  read: { t, c, s in if let v = read(t, c, s) { s[keyPath: field] = v } },
                  overlay: { _, _ in },
                  describe: { s, _ in describe(s[keyPath: field], s) })
    }
}

/// A table whose keys are declared as `Setting`s.
public protocol SettingTable {
    static var settings: [Setting<Self>] { get }
}

extension SettingTable {
    static var settingKeys: [String] { settings.map(\.key) }

    /// Reads every declared key of `t` into `section`, in declaration order (a later setting's
    /// check may look at an earlier one's value).
    static func read(_ t: TableReader, _ context: SettingContext, into section: inout Self) {
        for s in settings { s.read(t, context, &section) }
    }

    /// `later` laid over `self`, each key by its merge rule.
    func overlaid(with later: Self) -> Self {
        var s = self
        for setting in Self.settings { setting.overlay(&s, later) }
        return s
    }

    /// `check-config`'s lines for this table, generated from its settings.
    func explanation(catalog: [RecognizerSpec] = RecognizerCatalog.all) -> [String] {
        Self.settings.flatMap { $0.describe(self, catalog) }
    }

    /// One line per key: key, type, unit and summary, for `docs/configuration.md` and `--help`.
    public static var reference: [String] {
        settings.map { s in "\(s.key): \(s.type)\(s.unit.isEmpty ? "" : " (\(s.unit))"). \(s.summary)" }
    }
}

extension Setting {
    static func bool(_ key: String, _ field: WritableKeyPath<Section, Bool?> & Sendable, _ summary: String,
                     describe: @escaping @Sendable (Bool?, Section) -> [String]) -> Setting {
        Setting(key, field, type: "true or false", summary, read: { t, _, _ in t.bool(key) }, describe: { v, s, _ in describe(v, s) })
    }

    static func int(_ key: String, _ field: WritableKeyPath<Section, Int?> & Sendable, range: ClosedRange<Int>, _ summary: String,
                    describe: @escaping @Sendable (Int?, Section) -> [String]) -> Setting {
        Setting(key, field, type: "an integer \(range.lowerBound)…\(range.upperBound)", summary,
                read: { t, _, _ in t.int(key, in: range) }, describe: { v, s, _ in describe(v, s) })
    }

    static func number(_ key: String, _ field: WritableKeyPath<Section, Double?> & Sendable, range: ClosedRange<Double>, unit: String, _ summary: String,
                       describe: @escaping @Sendable (Double?, Section) -> [String]) -> Setting {
        Setting(key, field, type: "a number \(fmt(range.lowerBound))…\(fmt(range.upperBound))", unit: unit, summary,
                read: { t, _, _ in t.number(key, in: range, unit: unit) }, describe: { v, s, _ in describe(v, s) })
    }
}
