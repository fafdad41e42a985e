/// One kernel input event (struct input_event), from a live device or a recording.
public struct InputEvent: Sendable, Equatable {
    /// Seconds (CLOCK_MONOTONIC for live devices; whatever the recording holds otherwise).
    public var time: Double
    public var type: UInt16
    public var code: UInt16
    public var value: Int32

    @inlinable public init(time: Double, type: UInt16, code: UInt16, value: Int32) {
        self.time = time
        self.type = type
        self.code = code
        self.value = value
    }
}

/// The event types and codes gestured reads (linux/input-event-codes.h), spelled as the kernel does.
public enum EV {
    public static let SYN: UInt16 = 0x00
    public static let KEY: UInt16 = 0x01
    public static let REL: UInt16 = 0x02
    public static let ABS: UInt16 = 0x03
    public static let MSC: UInt16 = 0x04
}

public enum SYN {
    public static let REPORT: UInt16 = 0
    public static let CONFIG: UInt16 = 1
    public static let MT_REPORT: UInt16 = 2
    public static let DROPPED: UInt16 = 3
}

public enum ABS {
    public static let X: UInt16 = 0x00
    public static let Y: UInt16 = 0x01
    public static let PRESSURE: UInt16 = 0x18
    public static let DISTANCE: UInt16 = 0x19
    public static let MT_SLOT: UInt16 = 0x2f
    public static let MT_TOUCH_MAJOR: UInt16 = 0x30
    public static let MT_TOUCH_MINOR: UInt16 = 0x31
    public static let MT_WIDTH_MAJOR: UInt16 = 0x32
    public static let MT_WIDTH_MINOR: UInt16 = 0x33
    public static let MT_ORIENTATION: UInt16 = 0x34
    public static let MT_POSITION_X: UInt16 = 0x35
    public static let MT_POSITION_Y: UInt16 = 0x36
    public static let MT_TOOL_TYPE: UInt16 = 0x37
    public static let MT_BLOB_ID: UInt16 = 0x38
    public static let MT_TRACKING_ID: UInt16 = 0x39
    public static let MT_PRESSURE: UInt16 = 0x3a
    public static let MT_DISTANCE: UInt16 = 0x3b
}

public enum BTN {
    public static let LEFT: UInt16 = 0x110
    public static let TOOL_PEN: UInt16 = 0x140
    public static let TOOL_FINGER: UInt16 = 0x145
    public static let TOOL_DOUBLETAP: UInt16 = 0x14d
    public static let TOOL_TRIPLETAP: UInt16 = 0x14e
    public static let TOOL_QUADTAP: UInt16 = 0x14f
    public static let TOOL_QUINTTAP: UInt16 = 0x148
    public static let TOUCH: UInt16 = 0x14a
    public static let STYLUS: UInt16 = 0x14b
}

public enum MTTool {
    public static let FINGER: Int32 = 0
    public static let PEN: Int32 = 1
    public static let PALM: Int32 = 2
}

public enum InputProp {
    public static let POINTER: UInt16 = 0x00
    public static let DIRECT: UInt16 = 0x01
    public static let BUTTONPAD: UInt16 = 0x02
    public static let SEMI_MT: UInt16 = 0x03
}
