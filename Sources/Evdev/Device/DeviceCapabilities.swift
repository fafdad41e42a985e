/// One absolute axis (struct input_absinfo without the current value).
public struct AxisInfo: Sendable, Equatable {
    public var minimum: Int32
    public var maximum: Int32
    public var fuzz: Int32
    public var flat: Int32
    /// Units per millimetre; 0 when the device does not say.
    public var resolution: Int32

    public init(minimum: Int32, maximum: Int32, fuzz: Int32 = 0, flat: Int32 = 0, resolution: Int32 = 0) {
        self.minimum = minimum
        self.maximum = maximum
        self.fuzz = fuzz
        self.flat = flat
        self.resolution = resolution
    }

    /// Width of the axis in device units (max − min, as libinput measures sizes).
    @inlinable public var span: Double { Double(maximum) - Double(minimum) }
}

/// What a device can report: the event codes it declares and its axes, as the kernel (or a
/// recording's description) says. Only the parts gestured reads are kept.
public struct DeviceCapabilities: Sendable, Equatable {
    public var eventTypes: Set<UInt16>
    /// EV_KEY codes.
    public var keys: Set<UInt16>
    /// EV_ABS codes with their axis info.
    public var axes: [UInt16: AxisInfo]
    /// INPUT_PROP_* bits.
    public var properties: Set<UInt16>

    public init(
        eventTypes: Set<UInt16> = [], keys: Set<UInt16> = [], axes: [UInt16: AxisInfo] = [:],
        properties: Set<UInt16> = []
    ) {
        self.eventTypes = eventTypes
        self.keys = keys
        self.axes = axes
        self.properties = properties
    }

    public func hasKey(_ code: UInt16) -> Bool { keys.contains(code) }
    public func hasAxis(_ code: UInt16) -> Bool { axes[code] != nil }
    public func hasProperty(_ prop: UInt16) -> Bool { properties.contains(prop) }
}
