import GestureKit

/// Palms by contact size (`palm_mm`): a contact whose size on the device's size axis reaches
/// `mm` is a palm, as if the panel had said MT_TOOL_PALM — cancelled for the recognizers and the
/// app if they had it, never reported if it was a palm from its first frame. The axis is
/// ABS_MT_TOUCH_MAJOR, else ABS_MT_WIDTH_MAJOR (the contact's long side, in the units of its own
/// resolution, or the x axis's when it has none, as libinput reads it); a panel with neither has
/// no palm rule (`init` fails: the config check says so).
public struct PalmRule: Sendable, Equatable {
    public let axis: UInt16
    /// The size in the axis's units from which a contact is a palm.
    public let units: Int32
    public let mm: Double

    public init?(mm: Double, info: DeviceInfo, sizeMM: SizeMM) {
        guard let code = [ABS.MT_TOUCH_MAJOR, ABS.MT_WIDTH_MAJOR].first(where: { info.capabilities.axes[$0] != nil }),
              let a = info.capabilities.axes[code] else { return nil }
        let perMM = a.resolution > 0 ? Double(a.resolution) : info.x.span / max(sizeMM.width, 1)
        axis = code
        units = Int32(min(Double(Int32.max), max(1, (mm * perMM).rounded(.up))))
        self.mm = mm
    }

    /// The axis's name, for the log and check-config.
    public var axisName: String { axis == ABS.MT_TOUCH_MAJOR ? "ABS_MT_TOUCH_MAJOR" : "ABS_MT_WIDTH_MAJOR" }
}
