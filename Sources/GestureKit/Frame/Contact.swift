/// What touches the surface, as the kernel's ABS_MT_TOOL_TYPE says.
public enum ToolType: UInt8, Sendable {
    case finger
    case pen
    case palm

    public var name: String {
        switch self {
        case .finger: "finger"
        case .pen: "pen"
        case .palm: "palm"
        }
    }
}

/// Where a contact is in its life, as seen in one frame.
public enum ContactPhase: UInt8, Sendable {
    /// Touched down in this frame.
    case began
    /// Still down and moved since the previous frame.
    case moved
    /// Still down, did not move.
    case stationary
    /// Lifted in this frame: a normal end.
    case ended
    /// Lost in this frame without a normal lift: a palm, a SYN_DROPPED resync, an unplug.
    /// Gestures this contact was part of are cancelled, not completed.
    case cancelled

    /// The contact is still on the surface after this frame.
    @inlinable public var isDown: Bool { self == .began || self == .moved || self == .stationary }
}

/// One touch point in one frame.
public struct Contact: Sendable {
    /// Unique for the life of the touch on its device (the kernel tracking id, made unique).
    public var id: Int32
    /// The multitouch slot it occupies (0 for single-touch devices).
    public var slot: Int32
    public var phase: ContactPhase
    public var tool: ToolType
    /// Raw position in device units, as the kernel reports it.
    public var raw: Point
    /// Millimetres on the surface, in screen orientation (after rotation), origin top-left.
    /// Recognizer thresholds are in these units.
    public var mm: Point
    /// Normalized screen coordinates in [0, 1] after rotation and calibration.
    public var position: Point

    @inlinable public init(
        id: Int32, slot: Int32, phase: ContactPhase, tool: ToolType = .finger,
        raw: Point = .zero, mm: Point, position: Point
    ) {
        self.id = id
        self.slot = slot
        self.phase = phase
        self.tool = tool
        self.raw = raw
        self.mm = mm
        self.position = position
    }
}
