import GestureKit

/// Which gesture events something wants: a gesture and optional conditions. One filter for
/// every consumer — a `[[bind]]` and what `[mqtt]` publishes are read and matched the same way.
public struct GestureFilter: Sendable, Equatable {
    public var gesture: GestureKind
    /// A glob on the device's name or id.
    public var device: String?
    public var region: String?
    public var direction: Direction?
    public var edge: Edge?
    public var fingers: Int?
    public var count: Int?
    public var phases: [GesturePhase]
    /// A taught shape's name (gesture "shape").
    public var shape: String?

    /// The phases taken when none are given: the one phase of a discrete gesture, the end of a
    /// continuous one (its `changed` events when a binding steps along it).
    public static func defaultPhases(_ g: GestureKind, stepped: Bool = false) -> [GesturePhase] {
        g.isContinuous ? (stepped ? [.changed] : [.ended]) : [.recognized]
    }

    public init(gesture: GestureKind, device: String? = nil, region: String? = nil, direction: Direction? = nil, edge: Edge? = nil,
                fingers: Int? = nil, count: Int? = nil, phases: [GesturePhase]? = nil) {
        self.gesture = gesture
        self.device = device
        self.region = region
        self.direction = direction
        self.edge = edge
        self.fingers = fingers
        self.count = count
        self.phases = phases ?? Self.defaultPhases(gesture)
    }

    /// Does this gesture event, from this device, pass every condition?
    public func matches(_ e: GestureEvent, device label: DeviceLabel) -> Bool {
        guard e.kind == gesture, phases.contains(e.phase) else { return false }
        if let d = device, !Glob.matches(d, label.name), !Glob.matches(d, label.id) { return false }
        if let r = region, e.region != r { return false }
        if let d = direction, e.direction != d { return false }
        if let d = edge, e.edge != d { return false }
        if let f = fingers, e.fingers != f { return false }
        if let c = count, e.tapCount != c { return false }
        if let s = shape, e.shape != s { return false }
        return true
    }
}
