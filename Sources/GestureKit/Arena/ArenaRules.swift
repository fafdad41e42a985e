/// How the recognizers of one arena relate to each other. By default they are exclusive:
/// the first to recognize (or begin) wins and the others are cancelled.
public struct ArenaRules: Sendable, Equatable {
    /// Groups whose members may be recognized together (pan + pinch + rotate).
    public var simultaneous: [[GestureKind]]
    /// recognizer → the recognizers that must fail before it may recognize (tap waits for pan).
    public var requiresFailureOf: [GestureKind: [GestureKind]]
    /// recognizer → the recognizers it gives way to without waiting for them (pan yields to the
    /// shapes): it may begin and deliver its events at once, and is cancelled if one of them wins.
    public var yieldsTo: [GestureKind: [GestureKind]]
    /// recognizer → the region names whose touches it never sees.
    public var excludedRegions: [GestureKind: [String]]
    /// The region names whose touches no recognizer sees (the config's `"*"`).
    public var excludedForAll: [String]

    public init(
        simultaneous: [[GestureKind]] = [], requiresFailureOf: [GestureKind: [GestureKind]] = [:],
        yieldsTo: [GestureKind: [GestureKind]] = [:], excludedRegions: [GestureKind: [String]] = [:],
        excludedForAll: [String] = []
    ) {
        self.simultaneous = simultaneous
        self.requiresFailureOf = requiresFailureOf
        self.yieldsTo = yieldsTo
        self.excludedRegions = excludedRegions
        self.excludedForAll = excludedForAll
    }
}
