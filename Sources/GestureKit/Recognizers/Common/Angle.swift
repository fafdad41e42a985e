/// Trigonometry the core needs, written against the standard library alone (no Foundation, no
/// Glibc): arctangent for rotation angles and swipe directions.
public enum Angle {
    public static let pi = 3.141592653589793
    private static let sqrt3 = 1.7320508075688772
    private static let tanPiOver12 = 0.2679491924311227

    /// atan(x), accurate to about 1e-15: reduce to |t| ≤ tan(π/12), then the Taylor series.
    public static func atan(_ x: Double) -> Double {
        if x.isNaN { return x }
        var a = x < 0 ? -x : x
        let invert = a > 1
        if invert { a = 1 / a }
        var offset = 0.0
        if a > tanPiOver12 {
            a = (a * sqrt3 - 1) / (a + sqrt3)  // atan(a) = π/6 + atan(that)
            offset = pi / 6
        }
        let a2 = a * a
        var term = a
        var sum = a
        var n = 3.0
        for _ in 0..<12 {
            term *= -a2
            sum += term / n
            n += 2
        }
        var r = offset + sum
        if invert { r = pi / 2 - r }
        return x < 0 ? -r : r
    }

    /// atan2(y, x) in (−π, π].
    public static func atan2(_ y: Double, _ x: Double) -> Double {
        if x > 0 { return atan(y / x) }
        if x < 0 { return y >= 0 ? atan(y / x) + pi : atan(y / x) - pi }
        if y > 0 { return pi / 2 }
        if y < 0 { return -pi / 2 }
        return 0
    }

    /// The signed angle that turns `u` into `v`, in (−π, π]. On a screen (y down) a positive
    /// value is a clockwise turn (see `Point.cross`).
    public static func between(_ u: Point, _ v: Point) -> Double {
        atan2(u.cross(v), u.dot(v))
    }
}
