import GestureKit

/// A mouse button a binding clicks (`click = "right"`).
public enum PointerButton: String, Sendable, CaseIterable {
    case left, right, middle

    public var code: UInt16 {
        switch self {
        case .left: 0x110    // BTN_LEFT
        case .right: 0x111   // BTN_RIGHT
        case .middle: 0x112  // BTN_MIDDLE
        }
    }
}

/// The one virtual absolute pointer gestured clicks with: ABS_X/ABS_Y over 0…32767 and three
/// buttons, no INPUT_PROP_DIRECT and no BTN_TOUCH. That is the shape of QEMU's and VMware's
/// absolute tablets: udev tags it ID_INPUT_MOUSE, libinput makes it a pointer device that sends
/// POINTER_MOTION_ABSOLUTE (the axis range mapped onto the screen) and POINTER_BUTTON, and
/// compositors move their cursor to that point and click there. (With BTN_TOUCH or
/// INPUT_PROP_DIRECT it would be a touchscreen, whose taps applications treat as touches.)
public enum VirtualPointer {
    public static let name = "gestured virtual pointer"
    /// The axis maximum; libinput maps value v to v / (maximum + 1) of the screen.
    public static let maximum: Int32 = 32767

    public static var spec: UInputSpec {
        let axis = AxisInfo(minimum: 0, maximum: maximum)
        return UInputSpec(name: name, keys: PointerButton.allCases.map(\.code), axes: [ABS.X: axis, ABS.Y: axis])
    }

    /// The axis value of a normalized screen coordinate (0…1), clamped to the axis.
    public static func axisValue(_ normalized: Double) -> Int32 {
        let v = (normalized * Double(maximum + 1)).rounded(.down)
        guard v.isFinite else { return 0 }
        return Int32(max(0, min(Double(maximum), v)))
    }

    /// How long a click waits between announcing itself (`move`, at once) and clicking (`click`):
    /// weston 10 gives its seat a pointer only at a pointer device's first event, and a client
    /// binds its `wl_pointer` one round trip after hearing of it, so the press of a click whose
    /// motion came in the same read reached no client (the kiosk tier saw the release alone; a
    /// daemon's first click after the compositor started is such a click). wlroots and Xorg add
    /// the pointer when the device appears; there the announcement is one more motion to the
    /// same point.
    public static let announceSeconds = 0.15

    /// Moves to `at` (normalized screen coordinates): one motion frame.
    public static func move(to point: Point, on sink: FrameSink) throws(DeviceError) {
        let x = axisValue(point.x), y = axisValue(point.y)
        // The kernel drops an ABS event equal to the axis' current value, so a click at the last
        // position would move nothing, and the cursor may have moved since (another mouse).
        // Stepping one unit off and back in the same frame always delivers a motion to (x, y):
        // libinput reads the frame's last value.
        sink.append(type: EV.ABS, code: ABS.X, value: x ^ 1)
        sink.append(type: EV.ABS, code: ABS.X, value: x)
        sink.append(type: EV.ABS, code: ABS.Y, value: y ^ 1)
        sink.append(type: EV.ABS, code: ABS.Y, value: y)
        try sink.sendFrame()
    }

    /// Moves to `at` and clicks `button` there: a motion frame, a press frame, a release frame.
    public static func click(_ button: PointerButton, at point: Point, on sink: FrameSink) throws(DeviceError) {
        try move(to: point, on: sink)
        sink.append(type: EV.KEY, code: button.code, value: 1)
        try sink.sendFrame()
        sink.append(type: EV.KEY, code: button.code, value: 0)
        try sink.sendFrame()
    }
}
