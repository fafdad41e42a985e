/// How the recognizers of one arena relate to each other. By default they are exclusive:
/// the first to recognize (or begin) wins and the others are cancelled.
public struct ArenaRules: Sendable, Equatable {
    /// Groups whose members may be recognized together (pan + pinch + rotate).
    public var simultaneous: [[String]]
    /// recognizer → the recognizers that must fail before it may recognize (tap waits for pan).
    public var requiresFailureOf: [String: [String]]
    /// recognizer → the recognizers it gives way to without waiting for them (pan yields to the
    /// shapes): it may begin and deliver its events at once, and is cancelled if one of them wins.
    public var yieldsTo: [String: [String]]
    /// recognizer → the region names whose touches it never sees ("*" = every recognizer).
    public var excludedRegions: [String: [String]]

    public init(
        simultaneous: [[String]] = [], requiresFailureOf: [String: [String]] = [:],
        yieldsTo: [String: [String]] = [:], excludedRegions: [String: [String]] = [:]
    ) {
        self.simultaneous = simultaneous
        self.requiresFailureOf = requiresFailureOf
        self.yieldsTo = yieldsTo
        self.excludedRegions = excludedRegions
    }
}
