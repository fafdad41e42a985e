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

    /// The largest code of each event type, EV_SYN … EV_FF (linux/input-event-codes.h: SYN_MAX,
    /// KEY_MAX, REL_MAX, ABS_MAX, MSC_MAX, SW_MAX, LED_MAX, SND_MAX, REP_MAX, FF_MAX), indexed by
    /// type; EV_PWR (0x16) and EV_FF_STATUS (0x17, FF_STATUS_MAX) follow. libevdev and libmtdev
    /// index fixed tables by code: an event outside them must never reach either.
    static let maxCode: [UInt16: UInt16] = [
        0x00: 0x0f, 0x01: 0x2ff, 0x02: 0x0f, 0x03: 0x3f, 0x04: 0x07, 0x05: 0x10,
        0x11: 0x0f, 0x12: 0x07, 0x14: 0x01, 0x15: 0x7f, 0x16: 0, 0x17: 0x01,
    ]

    /// Why the kernel could not have sent this event (a type it does not define, or a code
    /// beyond its type's maximum), or nil when it could.
    public var outOfRange: String? {
        guard let max = Self.maxCode[type] else { return "event type 0x\(String(type, radix: 16)) is not a kernel event type" }
        guard code <= max else {
            return "event code 0x\(String(code, radix: 16)) is beyond the largest of type 0x\(String(type, radix: 16)) (0x\(String(max, radix: 16)))"
        }
        return nil
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
    /// The mouse buttons are BTN_MOUSE (BTN_LEFT) up to BTN_JOYSTICK, exclusive.
    public static let MOUSE: UInt16 = 0x110
    public static let LEFT: UInt16 = 0x110
    public static let JOYSTICK: UInt16 = 0x120
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
