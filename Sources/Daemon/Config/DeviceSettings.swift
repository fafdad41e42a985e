import GestureKit

/// Which devices a `[[device]]` section applies to: every key given must match.
public struct DeviceMatch: Sendable, Equatable {
    public var name: String?
    public var vendorProduct: (vendor: UInt16, product: UInt16)?
    public var kind: DeviceKindName?
    public var properties: [String: String] = [:]

    public init() {}

    public var isEmpty: Bool { name == nil && vendorProduct == nil && kind == nil && properties.isEmpty }

    public func matches(_ d: DeviceIdentity) -> Bool {
        if let n = name, !Glob.matches(n, d.name) { return false }
        if let vp = vendorProduct, vp.vendor != d.vendor || vp.product != d.product { return false }
        if let k = kind, k != d.kind { return false }
        for (key, want) in properties where !Glob.matches(want, d.properties[key] ?? "") { return false }
        return true
    }

    public static func == (a: DeviceMatch, b: DeviceMatch) -> Bool {
        a.name == b.name && a.vendorProduct?.vendor == b.vendorProduct?.vendor
            && a.vendorProduct?.product == b.vendorProduct?.product && a.kind == b.kind && a.properties == b.properties
    }
}

public enum DeviceKindName: String, Sendable, CaseIterable {
    case touchscreen
    case touchpad
}

/// What the config knows about a device when choosing its section (live or recorded alike).
public struct DeviceIdentity: Sendable {
    public var name: String
    public var id: String
    public var vendor: UInt16
    public var product: UInt16
    public var kind: DeviceKindName?
    public var properties: [String: String]

    public init(name: String, id: String, vendor: UInt16, product: UInt16, kind: DeviceKindName?, properties: [String: String] = [:]) {
        self.name = name
        self.id = id
        self.vendor = vendor
        self.product = product
        self.kind = kind
        self.properties = properties
    }
}

/// Per-device settings. Every field is optional so that sections layer: `[defaults]`, then each
/// matching `[[device]]` in file order, later values winning. Each field's key, range, merge rule
/// and words are declared once, in `settings` (DeviceSettingDeclarations).
public struct DeviceSettings: Sendable, Equatable, SettingTable {
    /// Degrees clockwise: 0, 90, 180, 270.
    public var rotation: Int?
    /// The 2×3 matrix, as LIBINPUT_CALIBRATION_MATRIX.
    public var calibration: [Double]?
    public var sizeMM: [Double]?
    public var grab: Bool?
    /// Passthrough (TouchRelay): grab the device and give the app a clone of it.
    public var passthrough: Bool?
    public var cancelsTouches: Bool?
    /// How a taken touch ends for the app (TouchRelay.Ending); default `.lift`.
    public var takenTouchEnd: TouchRelay.Ending?
    /// Region names, or "edges" (the edge swipe's band).
    public var delayRegions: [String]?
    public var delayFingers: Int?
    /// Passthrough's clone reports screen coordinates (CloneMapping) rather than the device's.
    public var mapClone: Bool?
    /// Seconds a clone waits for its panel's return after the panel went (KeptClones); 0: removed at once.
    public var keepCloneS: Double?
    /// Passthrough: the app gets sequences of at most this many fingers (TouchRelay.Rules.appFingers).
    public var appFingers: Int?
    /// Millimetres: a contact this large is a palm (PalmRule).
    public var palmMM: Double?
    /// Ghost touches are kept from recognizers and the app (GhostQuarantine).
    public var quarantineGhosts: Bool?
    public var longestGhostMS: Double?
    /// Milliseconds: while fingers are down, the device is read at most this often (LiveDeviceSource).
    public var readIntervalMS: Double?
    public var recognizers: [String]?
    /// recognizer → parameter → value, validated against the recognizer's declared parameters.
    public var parameters: [String: [String: Double]] = [:]
    public var simultaneous: [[String]]?
    public var requiresFailureOf: [String: [String]]?
    public var yieldsTo: [String: [String]]?
    public var exclude: [String: [String]]?

    public init() {}

    /// `read_interval_ms`'s limit: well inside what evdev's client buffer holds (128 events for a
    /// two-slot screen: about 300 ms of one finger moving at 83 frames a second).
    public static let maxReadIntervalMS = 50.0

    /// `keep_clone_s`'s default, a day: a panel in a monitor that powers down overnight, or one
    /// replugged, comes back to its clone, under compositors that never notice a touchscreen
    /// added later; a panel taken away for good leaves an idle clone that long.
    public static let defaultKeepCloneS = 86_400.0
    /// Its limit, a week: beyond it a clone would outlive any plausible return of its panel.
    public static let maxKeepCloneS = 604_800.0
}

/// A `[[device]]` section.
public struct DeviceSection: Sendable, Equatable {
    public var match: DeviceMatch
    public var settings: DeviceSettings
    /// 1-based position in the file, for explanations.
    public var index: Int
}
