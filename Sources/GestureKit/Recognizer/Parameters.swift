/// One tunable number of a recognizer, as it appears in config (`[device.circle] tolerance = 0.2`).
/// Declaring parameters as data lets the config layer validate every recognizer the same way:
/// unknown keys, wrong types and out-of-range values are found without special cases.
public struct Parameter: Sendable {
    public var name: String
    public var defaultValue: Double
    public var range: ClosedRange<Double>
    /// "mm", "s", "rad", "" …: shown by `check-config` and in errors.
    public var unit: String
    public var isInteger: Bool
    public var summary: String

    public init(
        _ name: String, default defaultValue: Double, range: ClosedRange<Double>,
        unit: String = "", integer: Bool = false, summary: String
    ) {
        self.name = name
        self.defaultValue = defaultValue
        self.range = range
        self.unit = unit
        self.isInteger = integer
        self.summary = summary
    }
}

/// Values for a recognizer's parameters: the defaults, with whatever the config overrides.
public struct ParameterValues: Sendable {
    public private(set) var values: [String: Double]

    public init(_ parameters: [Parameter], overrides: [String: Double] = [:]) {
        var v: [String: Double] = [:]
        for p in parameters { v[p.name] = p.defaultValue }
        for (k, x) in overrides { v[k] = x }
        values = v
    }

    /// The value of a declared parameter. Asking for an undeclared one is a programming error.
    public subscript(name: String) -> Double {
        guard let x = values[name] else { preconditionFailure("undeclared recognizer parameter \(name)") }
        return x
    }
}

/// What a recognizer is built from.
public struct RecognizerSetup: Sendable {
    public var parameters: ParameterValues
    /// The configured regions, for recognizers that report which region a gesture is in.
    public var regions: [Region]
    /// The shapes taught for the device (ShapeRecognizer).
    public var shapes: [TaughtShape]

    public init(parameters: ParameterValues, regions: [Region] = [], shapes: [TaughtShape] = []) {
        self.parameters = parameters
        self.regions = regions
        self.shapes = shapes
    }
}

/// Describes one kind of recognizer: its name, its parameters, and how to make one.
public struct RecognizerSpec: Sendable {
    public var name: String
    public var kind: GestureKind
    public var summary: String
    public var parameters: [Parameter]
    public var make: @Sendable (RecognizerSetup) -> any GestureRecognizer

    public init(
        name: String, kind: GestureKind, summary: String, parameters: [Parameter],
        make: @escaping @Sendable (RecognizerSetup) -> any GestureRecognizer
    ) {
        self.name = name
        self.kind = kind
        self.summary = summary
        self.parameters = parameters
        self.make = make
    }

    public func parameter(named name: String) -> Parameter? {
        parameters.first { $0.name == name }
    }
}
