/// Arbitrates between the recognizers of one device (see ArenaRules).
/// PLACEHOLDER API: the arbitration itself is being written; the signatures are the contract.
public final class GestureArena {
    public private(set) var recognizers: [any GestureRecognizer]
    public let rules: ArenaRules
    public let regions: [Region]

    public init(recognizers: [any GestureRecognizer], rules: ArenaRules = ArenaRules(), regions: [Region] = []) {
        self.recognizers = recognizers
        self.rules = rules
        self.regions = regions
    }

    /// Feeds one frame to every enabled recognizer and emits the events that win arbitration.
    public func handle(_ frame: TouchFrame, emit: (GestureEvent) -> Void) {}

    /// Lets timeouts fire; `now` is on the same clock as frame times.
    public func tick(now: Double, emit: (GestureEvent) -> Void) {}

    /// The earliest deadline of any recognizer, for the daemon's single timer.
    public var deadline: Double? { nil }

    /// Cancels everything in flight (SYN_DROPPED, unplug, shutdown, reload).
    public func cancelAll(time: Double, emit: (GestureEvent) -> Void) {}

    /// Enables or disables a recognizer by name; false when no recognizer has that name.
    @discardableResult
    public func setEnabled(_ name: String, _ enabled: Bool) -> Bool { false }

    public func isEnabled(_ name: String) -> Bool { false }
}

/// Every recognizer gestured ships, and the arena rules that make the defaults work together.
public enum RecognizerCatalog {
    public static var all: [RecognizerSpec] { [] }

    public static func spec(named name: String) -> RecognizerSpec? { all.first { $0.name == name } }

    public static var defaultRules: ArenaRules { ArenaRules() }

    /// An arena with every recognizer at its default settings (replay with no config).
    public static func defaultArena(regions: [Region] = []) -> GestureArena {
        GestureArena(
            recognizers: all.map { $0.make(RecognizerSetup(parameters: ParameterValues($0.parameters), regions: regions)) },
            rules: defaultRules, regions: regions)
    }
}
