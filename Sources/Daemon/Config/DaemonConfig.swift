import GestureKit

/// A whole, validated configuration. Built only by `ConfigLoader`; immutable once loaded, so a
/// reload swaps one value for another (atomically, from the loop's point of view).
public struct DaemonConfig: Sendable {
    public var file: String
    public var socket = SocketConfig()
    public var defaults = DeviceSettings()
    public var devices: [DeviceSection] = []
    public var regions: [Region] = []
    public var bindings: [Binding] = []
    /// `[shapes]`: the taught shapes every device's shape recognizer holds.
    public var shapes = ShapesConfig()
    /// `[mqtt]`: nil when the daemon speaks to no broker.
    public var mqtt: MQTTConfig?
    /// `[[mode]]`, `[modes]`, `[screen]`, `[[sequence]]`: a kiosk's modes and what switches them.
    public var modes = ModesConfig()

    public init(file: String) { self.file = file }

    /// The settings for one device: defaults, then each matching section in file order.
    public func settings(for device: DeviceIdentity) -> (settings: DeviceSettings, sections: [Int]) {
        var s = defaults
        var used: [Int] = []
        for section in devices where section.match.matches(device) {
            s = s.overlaid(with: section.settings)
            used.append(section.index)
        }
        return (s, used)
    }
}
