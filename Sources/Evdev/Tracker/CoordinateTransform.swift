import GestureKit

/// How the panel is mounted: the device image is turned this many degrees clockwise to get
/// the screen image.
public enum Rotation: Int, Sendable, CaseIterable {
    case none = 0
    case clockwise90 = 90
    case clockwise180 = 180
    case clockwise270 = 270

    /// Parses "0", "90", "180", "270".
    public init?(degrees: Int) { self.init(rawValue: ((degrees % 360) + 360) % 360) }

    /// True when width and height swap.
    public var isQuarterTurn: Bool { self == .clockwise90 || self == .clockwise270 }
}

/// Device units → millimetres in screen orientation → normalized screen coordinates.
///
/// Order: raw → device mm (axis resolution or size) → rotation → calibration. The calibration
/// matrix has libinput's meaning (LIBINPUT_CALIBRATION_MATRIX: a 2×3 row-major matrix applied
/// to normalized coordinates) and is applied after the rotation, in screen orientation; with
/// rotation 0 that is exactly libinput's behaviour. `Contact.mm` is not calibrated.
public struct CoordinateTransform: Sendable, Equatable {
    public var rotation: Rotation
    /// [a, b, c, d, e, f]: x' = a·x + b·y + c, y' = d·x + e·y + f.
    public var calibration: [Double]
    /// The config's size_mm (device orientation), overriding resolution and fallbacks.
    public var sizeMMOverride: SizeMM?

    public static let identityMatrix: [Double] = [1, 0, 0, 0, 1, 0]
    public static let identity = CoordinateTransform()

    public init(rotation: Rotation = .none, calibration: [Double] = CoordinateTransform.identityMatrix,
                sizeMMOverride: SizeMM? = nil) {
        self.rotation = rotation
        self.calibration = calibration.count == 6 ? calibration : CoordinateTransform.identityMatrix
        self.sizeMMOverride = sizeMMOverride
    }

    /// A device's transform from its udev properties (LIBINPUT_CALIBRATION_MATRIX); an
    /// unparsable matrix is reported, not ignored silently.
    public static func fromProperties(_ properties: [String: String]) throws(CalibrationError) -> CoordinateTransform {
        guard let text = properties["LIBINPUT_CALIBRATION_MATRIX"] else { return .identity }
        return CoordinateTransform(calibration: try parseCalibrationMatrix(text))
    }

    /// Parses "a b c d e f" (whitespace separated, as in the udev property).
    public static func parseCalibrationMatrix(_ text: String) throws(CalibrationError) -> [Double] {
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," })
        guard parts.count == 6 else {
            throw CalibrationError(message: "calibration matrix needs 6 numbers, got \(parts.count): \"\(text)\"")
        }
        var m: [Double] = []
        for p in parts {
            guard let v = Double(p), v.isFinite else {
                throw CalibrationError(message: "calibration matrix: \"\(p)\" is not a number")
            }
            m.append(v)
        }
        return m
    }

    public var isIdentityCalibration: Bool { calibration == CoordinateTransform.identityMatrix }
}

public struct CalibrationError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public var description: String { message }
}

@inlinable func clamp01(_ v: Double) -> Double { v < 0 ? 0 : v > 1 ? 1 : v }

/// The transform made concrete for one device: per-axis scale factors, precomputed so that
/// mapping a contact is a handful of multiplications.
public struct DeviceGeometry: Sendable {
    public let surface: Surface
    /// Size in device orientation.
    public let deviceSize: SizeMM
    let minX: Double, minY: Double
    let mmPerUnitX: Double, mmPerUnitY: Double
    let rotation: Rotation
    let a: Double, b: Double, c: Double, d: Double, e: Double, f: Double

    public init(info: DeviceInfo, transform: CoordinateTransform) {
        let size = transform.sizeMMOverride ?? info.sizeMM
        deviceSize = size
        minX = Double(info.x.minimum)
        minY = Double(info.y.minimum)
        mmPerUnitX = size.width / max(info.x.span, 1)
        mmPerUnitY = size.height / max(info.y.span, 1)
        rotation = transform.rotation
        let m = transform.calibration
        (a, b, c, d, e, f) = (m[0], m[1], m[2], m[3], m[4], m[5])
        surface = transform.rotation.isQuarterTurn
            ? Surface(widthMM: size.height, heightMM: size.width, isDirect: info.isDirect)
            : Surface(widthMM: size.width, heightMM: size.height, isDirect: info.isDirect)
    }

    /// Millimetres in screen orientation (origin top-left) and normalized screen coordinates.
    @inlinable public func map(x rawX: Int32, y rawY: Int32) -> (mm: Point, position: Point) {
        mapImpl(Double(rawX), Double(rawY))
    }

    @usableFromInline func mapImpl(_ rx: Double, _ ry: Double) -> (mm: Point, position: Point) {
        let dx = (rx - minX) * mmPerUnitX, dy = (ry - minY) * mmPerUnitY
        let w = deviceSize.width, h = deviceSize.height
        let mm: Point
        switch rotation {
        case .none: mm = Point(x: dx, y: dy)
        case .clockwise90: mm = Point(x: h - dy, y: dx)
        case .clockwise180: mm = Point(x: w - dx, y: h - dy)
        case .clockwise270: mm = Point(x: dy, y: w - dx)
        }
        let u = mm.x / surface.widthMM, v = mm.y / surface.heightMM
        // Screen coordinates stay on the screen: some devices report beyond their declared
        // range (the Synaptics fdo23890 recording goes to 1.7×). Millimetres are left as measured.
        return (mm, Point(x: clamp01(a * u + b * v + c), y: clamp01(d * u + e * v + f)))
    }
}
