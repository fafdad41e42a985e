/// A recognizer's tunable values in one struct, whose stored properties hold the defaults, and
/// the list that says which of them the config may set (`[device.circle] min_radius_mm = 8`).
/// Code reads the typed fields (`rules.minRadiusMM`); only the config layer sees the keys.
public protocol RecognizerRules: Sendable, Equatable {
    /// The defaults.
    init()
    /// The fields the config may set, each with its key, range and summary.
    static var parameters: [Parameter<Self>] { get }
}

extension RecognizerRules {
    /// The defaults with `change` applied: `TapRecognizer(rules: .init { $0.maxCount = 1 })`.
    public init(_ change: (inout Self) -> Void) {
        self.init()
        change(&self)
    }

    /// The defaults with config values applied, by key. The config layer checks keys and ranges
    /// against `parameters` before it gets here, so an unknown key is a programming error.
    /// Config-time code: one unspecialized copy serves every recognizer (specializing it per
    /// rules type cost ~200 kB of binary for nothing faster that matters).
    @_semantics("optimize.sil.specialize.generic.never")
    public init(values: [String: Double]) {
        self.init()
        for (key, x) in values {
            guard let p = Self.parameters.first(where: { $0.info.key == key }) else {
                preconditionFailure("\(Self.self) has no parameter \(key)")
            }
            p.write(&self, x)
        }
    }

    /// The declaration of one field, for code that shows or checks it outside the config
    /// (`gestured learn --min-size` uses the shape recognizer's `min_size_mm`).
    @_semantics("optimize.sil.specialize.generic.never")
    public static func parameter(_ field: PartialKeyPath<Self>) -> ParameterInfo? {
        parameters.first { $0.field == field }?.info
    }
}

/// One field of a recognizer's rules as the config sees it: the key (with its unit as suffix:
/// `_mm`, `_s`, `_rad`, `_turns`), the default, the range, a one-sentence summary, and the key it
/// had before a rename, so that an old config gets a pointed error instead of "unknown key".
public struct ParameterInfo: Sendable {
    public let key: String
    public let defaultValue: Double
    public let range: ClosedRange<Double>
    public let isInteger: Bool
    public let summary: String
    public let formerKey: String?

    /// The unit, read off the key's suffix: "mm", "s", "rad", "turns", or "" for a plain number.
    public var unit: String {
        for (suffix, unit) in [("_mm", "mm"), ("_s", "s"), ("_rad", "rad"), ("_turns", "turns")]
        where key.hasSuffix(suffix) { return unit }
        return ""
    }
}

/// Binds a config key to one field of `Rules` through its key path: a misspelt field does not
/// compile, and the default is the field's own initial value (read once, from `Rules()`).
public struct Parameter<Rules: RecognizerRules>: Sendable {
    public let info: ParameterInfo
    let field: PartialKeyPath<Rules> & Sendable
    let write: @Sendable (inout Rules, Double) -> Void

    @_semantics("optimize.sil.specialize.generic.never")
    public init(_ key: String, _ field: WritableKeyPath<Rules, Double> & Sendable, range: ClosedRange<Double>,
                was formerKey: String? = nil, _ summary: String) {
        info = ParameterInfo(key: key, defaultValue: Rules()[keyPath: field], range: range, isInteger: false,
                             summary: summary, formerKey: formerKey)
        self.field = field
        write = { $0[keyPath: field] = $1 }
    }

    @_semantics("optimize.sil.specialize.generic.never")
    public init(_ key: String, _ field: WritableKeyPath<Rules, Int> & Sendable, range: ClosedRange<Int>,
                was formerKey: String? = nil, _ summary: String) {
        info = ParameterInfo(key: key, defaultValue: Double(Rules()[keyPath: field]),
                             range: Double(range.lowerBound)...Double(range.upperBound), isInteger: true,
                             summary: summary, formerKey: formerKey)
        self.field = field
        write = { $0[keyPath: field] = Int($1) }
    }

    /// A switch, set as 0 or 1 in the config.
    @_semantics("optimize.sil.specialize.generic.never")
    public init(_ key: String, _ field: WritableKeyPath<Rules, Bool> & Sendable,
                was formerKey: String? = nil, _ summary: String) {
        info = ParameterInfo(key: key, defaultValue: Rules()[keyPath: field] ? 1 : 0, range: 0...1, isInteger: true,
                             summary: summary, formerKey: formerKey)
        self.field = field
        write = { $0[keyPath: field] = $1 != 0 }
    }
}

extension Parameter {
    /// `min_fingers` and `max_fingers`, which every multi-finger recognizer has.
    @_semantics("optimize.sil.specialize.generic.never")
    public static func fingers(_ min: WritableKeyPath<Rules, Int> & Sendable, _ max: WritableKeyPath<Rules, Int> & Sendable,
                               range: ClosedRange<Int>) -> [Parameter] {
        [Parameter("min_fingers", min, range: range, "Fewest fingers."),
         Parameter("max_fingers", max, range: range, "Most fingers.")]
    }
}
