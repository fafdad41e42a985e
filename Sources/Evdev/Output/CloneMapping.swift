/// What a clone with `map_clone` reports instead of the device's raw coordinates: the position
/// the recognizers see (rotation, then calibration, clamped to the screen), in the units of the
/// clone's own axes. The clone's x axis is the device axis that runs along the screen's width
/// after the rotation (the device's y for 90° and 270°), with that axis's range and resolution,
/// so a compositor that maps the clone's range onto its output gets the touched place.
///
/// Mapped the same way as DeviceGeometry's normalized position (raw → [0, 1] per axis → turned →
/// calibrated → clamped), then quantized to the nearest unit: the clone and the recognizers
/// agree to within half a unit.
public struct CloneMapping: Sendable, Equatable {
    /// The device's axes (x, y) as it reports them.
    public let deviceX: AxisInfo, deviceY: AxisInfo
    /// The clone's axes: what it declares and reports.
    public let cloneX: AxisInfo, cloneY: AxisInfo
    public let rotation: Rotation
    let m: [Double]

    public init(x: AxisInfo, y: AxisInfo, transform: CoordinateTransform) {
        deviceX = x
        deviceY = y
        rotation = transform.rotation
        m = transform.calibration
        (cloneX, cloneY) = transform.rotation.isQuarterTurn ? (y, x) : (x, y)
    }

    /// Nothing to map: the clone's coordinates would be the device's.
    public var isIdentity: Bool { rotation == .none && m == CoordinateTransform.identityMatrix }

    /// The clone's coordinates of a device position.
    @inlinable public func map(x rawX: Int32, y rawY: Int32) -> (x: Int32, y: Int32) {
        let (u, v) = screen(x: rawX, y: rawY)
        return (Self.units(u, cloneX), Self.units(v, cloneY))
    }

    /// Normalized screen coordinates of a device position (DeviceGeometry's `position`).
    @usableFromInline func screen(x rawX: Int32, y rawY: Int32) -> (Double, Double) {
        let nx = (Double(rawX) - Double(deviceX.minimum)) / max(deviceX.span, 1)
        let ny = (Double(rawY) - Double(deviceY.minimum)) / max(deviceY.span, 1)
        let u: Double, v: Double
        switch rotation {
        case .none: (u, v) = (nx, ny)
        case .clockwise90: (u, v) = (1 - ny, nx)
        case .clockwise180: (u, v) = (1 - nx, 1 - ny)
        case .clockwise270: (u, v) = (ny, 1 - nx)
        }
        return (clamp01(m[0] * u + m[1] * v + m[2]), clamp01(m[3] * u + m[4] * v + m[5]))
    }

    /// A normalized coordinate in an axis's units, rounded to the nearest (halves away from zero).
    @usableFromInline static func units(_ n: Double, _ axis: AxisInfo) -> Int32 {
        Int32((Double(axis.minimum) + n * axis.span).rounded())
    }
}
