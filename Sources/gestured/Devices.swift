import ArgumentParser
import Daemon
import Evdev
import GestureKit
import Glibc

/// `gestured devices`: the touch devices gestured would use, and how it sees them.
struct Devices: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List touchscreens and touchpads: kind, size in mm (and whether it is a fallback), slots, resolution, calibration, grab state.")

    func run() throws {
        let monitor = DeviceMonitor()
        if let notice = monitor.notice { StandardStream.writeLine("note: \(notice)") }
        let candidates = monitor.enumerate()
        if candidates.isEmpty {
            StandardStream.writeLine("no touch devices found")
            return
        }
        for c in candidates {
            do {
                let device = try EvdevDevice(devnode: c.devnode, properties: c.properties)
                StandardStream.writeLine(Self.describe(device, clone: TouchClone.node(forDeviceNamed: device.info.name)))
            } catch {
                StandardStream.writeLine("\(c.devnode): cannot open: \(error)")
            }
        }
    }

    /// `clone`: the event node of its passthrough clone, if gestured passes it through.
    static func describe(_ device: EvdevDevice, clone: String? = nil) -> String {
        let i = device.info
        var lines: [String] = []
        lines.append("\(i.devnode ?? "?"): \(i.name)")
        lines.append("  id:          \(i.id)")
        lines.append("  kind:        \(i.kind.rawValue)\(i.capabilities.hasProperty(InputProp.DIRECT) ? " (INPUT_PROP_DIRECT)" : "")")
        lines.append("  protocol:    \(protocolName(i.touchProtocol)), \(i.slotCount) slot\(i.slotCount == 1 ? "" : "s")")
        lines.append("  axes:        x \(i.x.minimum)…\(i.x.maximum), y \(i.y.minimum)…\(i.y.maximum)")
        lines.append("  resolution:  x \(i.x.resolution), y \(i.y.resolution) units/mm")
        lines.append("  size:        \(i.sizeDescription())")
        let calibration: String
        switch Result(catching: { try CoordinateTransform.fromProperties(i.properties) }) {
        case .success(let t): calibration = t.isIdentityCalibration ? "identity" : t.calibration.map { format($0) }.joined(separator: " ")
        case .failure(let e): calibration = "invalid LIBINPUT_CALIBRATION_MATRIX: \(e)"
        }
        lines.append("  calibration: \(calibration)")
        lines.append("  grab:        \(device.isGrabbedElsewhere() ? "grabbed by another process" : "not grabbed")")
        if let clone { lines.append("  passthrough: yes, the app reads the clone \(clone)") }
        return lines.joined(separator: "\n")
    }

    static func protocolName(_ p: TouchProtocol) -> String {
        switch p {
        case .multitouchB: "multitouch (slots)"
        case .multitouchA: "multitouch protocol A (via mtdev)"
        case .singleTouch: "single touch"
        }
    }

    static func format(_ v: Double) -> String { DecimalText.string(v, places: 1) }
}
