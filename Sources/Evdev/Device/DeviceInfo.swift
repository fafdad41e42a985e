import GestureKit

/// What kind of touch device this is, by the same rules as udev's input_id builtin.
public enum DeviceKind: String, Sendable {
    case touchscreen
    case touchpad
    case other
}

/// How the device reports contacts.
public enum TouchProtocol: String, Sendable {
    /// Slots with tracking ids (ABS_MT_SLOT).
    case multitouchB
    /// Anonymous contacts separated by SYN_MT_REPORT; gestured runs them through mtdev.
    case multitouchA
    /// ABS_X/ABS_Y and BTN_TOUCH: one contact.
    case singleTouch
}

/// A width and a height in millimetres.
public struct SizeMM: Sendable, Equatable {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}

/// Everything gestured knows about one input device, live or recorded.
public struct DeviceInfo: Sendable {
    /// The device's name, made printable where it is read (`Printable`): the kernel's name is
    /// whatever a USB descriptor or a uinput user wrote, and it reaches logs, the journal,
    /// `gestured devices` and `listen`, and the clone's own name. Config globs cannot name a
    /// control character, so matching loses nothing.
    public var name: String
    /// Stable across reboots and replugs, and distinct for two identical devices: the bus,
    /// vendor and product, then where the device sits — udev's ID_PATH (the port), or for a
    /// virtual device without one its node name: "usb-056a:00e6@pci-0000:00:14.0-usb-0:2:1.0",
    /// "usb-056a:00e6@event4". For a recording, the recording's file name without its extension.
    public var id: String
    public var bus: UInt16
    public var vendor: UInt16
    public var product: UInt16
    public var version: UInt16
    public var capabilities: DeviceCapabilities
    public var kind: DeviceKind
    /// The surface is the screen: a touchscreen by `classify`, with or without
    /// INPUT_PROP_DIRECT (N-Trig, usbtouchscreen and serial panels set none). Every
    /// direct-touch rule follows it: tap slop, edges, passthrough.
    public var isDirect: Bool { kind == .touchscreen }
    public var touchProtocol: TouchProtocol
    /// The axes contacts are read from (ABS_MT_POSITION_X/Y for multitouch, ABS_X/Y otherwise).
    public var x: AxisInfo
    public var y: AxisInfo
    /// Slots the tracker keeps: the kernel's for protocol B, mtdev's for protocol A, 1 for single touch.
    public var slotCount: Int
    /// The most slots a device may have: libevdev's own limit (MAX_SLOTS), far above any touch
    /// surface (10–20). Recordings claiming more are rejected; the tracker never allocates more.
    public static let maxSlots = 256
    /// Width and height of the surface in device orientation.
    public var sizeMM: SizeMM
    /// True when the size is not from the axis resolution (see `DeviceSize`).
    public var sizeIsFallback: Bool
    /// Where `sizeMM` comes from, for `gestured devices` and the log.
    public var sizeReason: String
    /// udev properties (empty for recordings unless a libinput recording carries them).
    public var properties: [String: String]
    public var devnode: String?

    public var label: DeviceLabel { DeviceLabel(name: name, id: id) }

    /// The key whose value means "touching" for single-touch devices: BTN_TOUCH, else
    /// BTN_TOOL_FINGER, else BTN_LEFT (old resistive panels report a left button).
    public var touchKey: UInt16 {
        capabilities.hasKey(BTN.TOUCH) ? BTN.TOUCH : capabilities.hasKey(BTN.TOOL_FINGER) ? BTN.TOOL_FINGER : BTN.LEFT
    }

    /// The size actually used with `transform`, and where it comes from, for `gestured
    /// devices` and the daemon's log: "344.95 × 194.97 mm (fallback: resolution 0; …)".
    public func sizeDescription(transform: CoordinateTransform = .identity) -> String {
        func mm(_ v: Double) -> String { DecimalText.string(v, places: 2) }
        if let s = transform.sizeMMOverride { return "\(mm(s.width)) × \(mm(s.height)) mm (size_mm from the config)" }
        let base = "\(mm(sizeMM.width)) × \(mm(sizeMM.height)) mm"
        return sizeIsFallback ? base + " (fallback: \(sizeReason))" : base + " (\(sizeReason))"
    }

    /// Derives kind, protocol, axes and size from the capabilities. `id` defaults to the
    /// bus/vendor/product id.
    public init(
        name: String, id: String? = nil, bus: UInt16, vendor: UInt16, product: UInt16, version: UInt16,
        capabilities: DeviceCapabilities, properties: [String: String] = [:], devnode: String? = nil
    ) {
        self.name = Printable.escaping(name)
        self.bus = bus
        self.vendor = vendor
        self.product = product
        self.version = version
        self.id = id ?? DeviceInfo.stableID(bus: bus, vendor: vendor, product: product)
            + DeviceInfo.location(properties: properties, devnode: devnode)
        self.capabilities = capabilities
        self.properties = properties
        self.devnode = devnode
        kind = DeviceInfo.classify(capabilities, properties: properties)

        let caps = capabilities
        let mtX = caps.axes[ABS.MT_POSITION_X], mtY = caps.axes[ABS.MT_POSITION_Y]
        if let mtX, let mtY, let slot = caps.axes[ABS.MT_SLOT] {
            touchProtocol = .multitouchB
            x = mtX
            y = mtY
            slotCount = min(Self.maxSlots, max(1, Int(slot.maximum) + 1))
        } else if let mtX, let mtY {
            touchProtocol = .multitouchA
            x = mtX
            y = mtY
            slotCount = MTDevConverter.slotCount
        } else {
            touchProtocol = .singleTouch
            x = caps.axes[ABS.X] ?? AxisInfo(minimum: 0, maximum: 0)
            y = caps.axes[ABS.Y] ?? AxisInfo(minimum: 0, maximum: 0)
            slotCount = 1
        }
        let size = DeviceSize.estimate(x: x, y: y, kind: kind)
        sizeMM = size.size
        sizeIsFallback = size.isFallback
        sizeReason = size.reason
    }

    /// "@ID_PATH", else "@eventN", else nothing (a device known only by its capabilities).
    static func location(properties: [String: String], devnode: String?) -> String {
        if let path = properties["ID_PATH"], !path.isEmpty { return "@" + path }
        if let node = devnode, let name = node.split(separator: "/").last { return "@" + name }
        return ""
    }

    /// "usb-056a:00e6": the bus name and the vendor and product ids, in hex.
    public static func stableID(bus: UInt16, vendor: UInt16, product: UInt16) -> String {
        "\(busName(bus))-\(hex4(vendor)):\(hex4(product))"
    }

    public static func busName(_ bus: UInt16) -> String {
        switch bus {
        case 0x01: "pci"
        case 0x03: "usb"
        case 0x05: "bluetooth"
        case 0x06: "virtual"
        case 0x10: "isa"
        case 0x11: "i8042"
        case 0x13: "rs232"
        case 0x18: "i2c"
        case 0x19: "host"
        case 0x1C: "spi"
        default: "bus" + hex4(bus)
        }
    }

    static func hex4(_ v: UInt16) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: max(0, 4 - s.count)) + s
    }

    /// udev's input_id rules (systemd's udev-builtin-input_id.c, test_pointers), reduced to the
    /// kinds that matter here; udev's own verdict (ID_INPUT_TOUCHSCREEN / ID_INPUT_TOUCHPAD),
    /// when present, wins. ABS_X/ABS_Y and ABS_MT_POSITION_X/Y are judged apart, as udev does:
    /// a stylus makes a tablet (not ours); BTN_TOOL_FINGER without INPUT_PROP_DIRECT a touchpad;
    /// then, for ABS_X/ABS_Y only, a mouse button makes an absolute mouse (a VM's tablet, a
    /// panel that reports BTN_LEFT and not BTN_TOUCH: not a touchscreen unless udev says so);
    /// then BTN_TOUCH or INPUT_PROP_DIRECT a touchscreen. Multitouch positions do not count when
    /// the device claims every axis (ABS_MT_SLOT - 1 as well as ABS_MT_SLOT).
    public static func classify(_ caps: DeviceCapabilities, properties: [String: String] = [:]) -> DeviceKind {
        if properties["ID_INPUT_TOUCHSCREEN"] == "1" { return .touchscreen }
        if properties["ID_INPUT_TOUCHPAD"] == "1" { return .touchpad }
        let abs = caps.hasAxis(ABS.X) && caps.hasAxis(ABS.Y)
        let mt = caps.hasAxis(ABS.MT_POSITION_X) && caps.hasAxis(ABS.MT_POSITION_Y)
            && !(caps.hasAxis(ABS.MT_SLOT) && caps.hasAxis(ABS.MT_SLOT - 1))
        guard abs || mt else { return .other }
        if caps.hasKey(BTN.TOOL_PEN) || caps.hasKey(BTN.STYLUS) { return .other }
        let direct = caps.hasProperty(InputProp.DIRECT)
        if caps.hasKey(BTN.TOOL_FINGER) && !direct { return .touchpad }
        let touch = caps.hasKey(BTN.TOUCH) || direct
        if mt && touch { return .touchscreen }
        if abs && !(BTN.MOUSE..<BTN.JOYSTICK).contains(where: caps.hasKey) && touch { return .touchscreen }
        return .other
    }
}
