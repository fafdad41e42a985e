import GestureKit

/// Which panel a clone was made of, and what it copied of it: what decides whether a panel that
/// appears may take over a clone whose panel went away (KeptClones), so that the compositor
/// never sees the touchscreen vanish when a panel is replugged or power-cycled.
public struct ClonePanel: Sendable, Equatable {
    public var identity: PanelIdentity
    public var shape: PanelShape
    /// `map_clone`'s transform: the clone's axes were turned and its positions are mapped with it.
    public var mapping: CoordinateTransform?

    public init(identity: PanelIdentity, shape: PanelShape, mapping: CoordinateTransform?) {
        self.identity = identity
        self.shape = shape
        self.mapping = mapping
    }

    /// Whether a clone made of `self` serves `other` unchanged, or why not.
    public func fit(_ other: ClonePanel) -> CloneFit {
        guard identity == other.identity else { return .otherPanel }
        if let why = shape.difference(from: other.shape) { return .otherShape(why) }
        return mapping == other.mapping ? .fits : .otherMapping
    }
}

/// What a kept clone is to a panel that appears.
public enum CloneFit: Sendable, Equatable {
    /// Its own panel, back as it was: the clone carries on.
    case fits
    /// Another device: the clone keeps waiting for its own.
    case otherPanel
    /// Its own panel, changed (firmware, a reconfigured controller): the clone's axes would lie.
    case otherShape(String)
    /// Its own panel, mapped otherwise (a reload changed `map_clone`, `rotation` or `calibration`).
    case otherMapping
}

/// What names a panel across replugs and power cycles — the same for the same device back on its
/// connector, different for a second identical one beside it. The kernel's ids and name say which
/// model; `uniq` (a USB or Bluetooth serial, where the firmware has one) which unit; `location`
/// where it sits: udev's ID_PATH (the port: "pci-0000:00:14.0-usb-0:2:1.0", a DSI panel's i2c
/// bus), else the kernel's phys (a uinput device's, which its maker sets). Not the event node
/// (a replug gets the next free one) nor ID_SERIAL (udev makes it of vendor and model when the
/// device has no serial: two identical panels would share it). A panel moved to another port is
/// another panel: it gets a clone of its own, which is always safe.
public struct PanelIdentity: Sendable, Equatable {
    public var name: String
    public var bus: UInt16
    public var vendor: UInt16
    public var product: UInt16
    /// Firmware revisions may change what the panel reports: a changed version is another panel.
    public var version: UInt16
    public var uniq: String
    public var location: String

    public init(name: String, bus: UInt16, vendor: UInt16, product: UInt16, version: UInt16, uniq: String, location: String) {
        self.name = name
        self.bus = bus
        self.vendor = vendor
        self.product = product
        self.version = version
        self.uniq = uniq
        self.location = location
    }

    /// A device's identity from what the kernel and udev say of it (`phys`, `uniq`: the kernel's).
    public init(_ info: DeviceInfo, phys: String, uniq: String) {
        let path = info.properties["ID_PATH"] ?? ""
        self.init(name: info.name, bus: info.bus, vendor: info.vendor, product: info.product, version: info.version,
                  uniq: uniq, location: path.isEmpty ? phys : path)
    }
}

/// Everything of a panel a clone copies (libevdev's copy: UInputDevice.init(template:)): its
/// event codes, every axis with range, fuzz, flat and resolution (the slot count is ABS_MT_SLOT's
/// range), and its input properties. A reader set itself up from the clone's at open (libinput
/// sizes the touchscreen from ranges and resolution, counts slots, reads INPUT_PROP_DIRECT): a
/// clone serves a panel only when all of it is equal.
public struct PanelShape: Sendable, Equatable {
    /// Event type → the codes declared of it, axes included (EV_ABS).
    public var codes: [UInt16: Set<UInt16>]
    public var axes: [UInt16: AxisInfo]
    /// INPUT_PROP_* bits.
    public var properties: Set<UInt16>

    public init(codes: [UInt16: Set<UInt16>] = [:], axes: [UInt16: AxisInfo] = [:], properties: Set<UInt16> = []) {
        self.codes = codes
        self.axes = axes
        self.properties = properties
    }

    /// Nil when equal, else the first difference that matters to a reader, for the log.
    public func difference(from other: PanelShape) -> String? {
        let slots = axes[ABS.MT_SLOT].map { Int($0.maximum) + 1 } ?? 0
        let otherSlots = other.axes[ABS.MT_SLOT].map { Int($0.maximum) + 1 } ?? 0
        if slots != otherSlots { return "\(slots) slots, now \(otherSlots)" }
        for code in Set(axes.keys).union(other.axes.keys).sorted() where axes[code] != other.axes[code] {
            return "axis \(Self.hex(code)) \(Self.describe(axes[code])), now \(Self.describe(other.axes[code]))"
        }
        if properties != other.properties { return "input properties \(Self.list(properties)), now \(Self.list(other.properties))" }
        for type in Set(codes.keys).union(other.codes.keys).sorted() where codes[type] != other.codes[type] {
            return "event codes of type \(Self.hex(type)) differ"
        }
        return nil
    }

    private static func describe(_ a: AxisInfo?) -> String {
        guard let a else { return "absent" }
        return "\(a.minimum)…\(a.maximum) (fuzz \(a.fuzz), flat \(a.flat), resolution \(a.resolution))"
    }

    private static func list(_ s: Set<UInt16>) -> String { "[" + s.sorted().map { hex($0) }.joined(separator: ", ") + "]" }

    private static func hex(_ v: UInt16) -> String { "0x" + String(v, radix: 16) }
}
