/// A recognizer as the catalog and the config know it. Each recognizer states its kind (whose
/// raw value is its name in config, on the socket and in arena rules), a one-sentence summary
/// and its rules type once; everything here is derived from those.
public protocol DeclaredRecognizer: GestureRecognizer, SendableMetatype {
    associatedtype Rules: RecognizerRules
    static var kind: GestureKind { get }
    static var summary: String { get }
    init(rules: Rules, context: RecognizerContext)
}

extension DeclaredRecognizer {
    public var kind: GestureKind { Self.kind }
    public static var spec: RecognizerSpec { RecognizerSpec(Self.self) }

    /// With no regions or taught shapes (tests, benchmarks).
    public init(rules: Rules = Rules()) { self.init(rules: rules, context: RecognizerContext()) }

    /// The default rules with `change` applied: `TapRecognizer { $0.maxCount = 1 }`.
    public init(_ change: (inout Rules) -> Void) { self.init(rules: Rules(change)) }
}

/// What a recognizer is built with besides its rules. The recognizers of one arena are built
/// with one context, so that they share what it holds for them (one stroke for the one-finger
/// shapes).
public struct RecognizerContext {
    /// The configured regions, for recognizers that report which region a gesture is in.
    public var regions: [Region]
    /// The shapes taught for the device (ShapeRecognizer).
    public var shapes: [TaughtShape]
    /// The stroke the one-finger shape recognizers built with this context follow together.
    public let stroke = SharedStroke()

    public init(regions: [Region] = [], shapes: [TaughtShape] = []) {
        self.regions = regions
        self.shapes = shapes
    }
}

/// One kind of recognizer with its type erased: its name, its parameters, and how to make one
/// from config values.
public struct RecognizerSpec: Sendable {
    public let kind: GestureKind
    public let summary: String
    public let parameters: [ParameterInfo]
    private let build: @Sendable ([String: Double], RecognizerContext) -> any GestureRecognizer

    /// Config-time code: one unspecialized copy serves every recognizer (specializing it per
    /// rules type cost ~200 kB of binary for nothing faster that matters).
    @_semantics("optimize.sil.specialize.generic.never")
    public init<R: DeclaredRecognizer>(_: R.Type) {
        kind = R.kind
        summary = R.summary
        parameters = R.Rules.parameters.map(\.info)
        build = { R(rules: R.Rules(values: $0), context: $1) }
    }

    public var name: String { kind.rawValue }

    /// A recognizer with these config values (checked against `parameters`) over the defaults.
    public func make(_ values: [String: Double] = [:], context: RecognizerContext = RecognizerContext()) -> any GestureRecognizer {
        build(values, context)
    }

    public func parameter(named key: String) -> ParameterInfo? { parameters.first { $0.key == key } }

    /// The parameter a config key named before it was renamed.
    public func parameter(formerlyNamed key: String) -> ParameterInfo? { parameters.first { $0.formerKey == key } }
}
