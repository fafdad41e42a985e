/// The physical size of a surface, from the axis resolution or, when the device reports
/// resolution 0 (many do), from a stated fallback.
///
/// Fallbacks, in order:
/// 1. One axis has a resolution: use it for both (square device units).
/// 2. Touchpad: 69 × 50 mm, the size libinput assumes for touchpads without resolution.
/// 3. Touchscreen (or other): a 15.6-inch (396.2 mm) diagonal, a common kiosk panel, with
///    square device units (so the aspect ratio is the axis ranges' ratio).
/// A `size_mm` in the config (CoordinateTransform.sizeMMOverride) beats all of these.
public enum DeviceSize {
    public static let touchpadFallback = SizeMM(width: 69, height: 50)
    public static let touchscreenDiagonalMM = 15.6 * 25.4

    public static func estimate(x: AxisInfo, y: AxisInfo, kind: DeviceKind)
        -> (size: SizeMM, isFallback: Bool, reason: String)
    {
        let sx = max(x.span, 1), sy = max(y.span, 1)
        switch (x.resolution > 0, y.resolution > 0) {
        case (true, true):
            return (SizeMM(width: sx / Double(x.resolution), height: sy / Double(y.resolution)), false,
                    "axis resolution \(x.resolution)×\(y.resolution) units/mm")
        case (true, false):
            let r = Double(x.resolution)
            return (SizeMM(width: sx / r, height: sy / r), true,
                    "y resolution 0; assumed square units (x resolution \(x.resolution) units/mm)")
        case (false, true):
            let r = Double(y.resolution)
            return (SizeMM(width: sx / r, height: sy / r), true,
                    "x resolution 0; assumed square units (y resolution \(y.resolution) units/mm)")
        case (false, false):
            if kind == .touchpad {
                return (touchpadFallback, true, "resolution 0; assumed a 69×50 mm touchpad as libinput does (set size_mm)")
            }
            let k = touchscreenDiagonalMM / (sx * sx + sy * sy).squareRoot()
            return (SizeMM(width: sx * k, height: sy * k), true,
                    "resolution 0; assumed a 15.6-inch diagonal with square units (set size_mm)")
        }
    }
}
