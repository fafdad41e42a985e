/// The core's trigonometry, on the standard library alone (it has no atan2, sin or cos without
/// Foundation or Glibc): rotation angles, swipe directions, a stroke's turning and direction
/// profile, the circle's harmonics. atan2 is within 1e-15 rad of Glibc's for any finite
/// arguments, sin and cos within 2e-15 for |a| ≤ 4π (beyond, reducing by 2π loses about
/// |a|·1e-16): AngleTests checks both against Glibc.
public enum Angle {
    public static let pi = 3.141592653589793
    private static let sqrt3 = 1.7320508075688772
    private static let tanPiOver12 = 0.2679491924311227

    /// atan(x) in [−π/2, π/2]: reduced to |t| ≤ tan(π/12) ≈ 0.268, where 12 terms of the Taylor
    /// series t − t³/3 + t⁵/5 − … leave less than 0.268²⁵/25 ≈ 2e-16.
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
        // Horner over the coefficients (−1)ᵏ/(2k+1), k = 0…11: no division at run time.
        let sum = 1 + a2 * (-1.0 / 3 + a2 * (1.0 / 5 + a2 * (-1.0 / 7 + a2 * (1.0 / 9 + a2 * (-1.0 / 11 + a2 * (1.0 / 13
            + a2 * (-1.0 / 15 + a2 * (1.0 / 17 + a2 * (-1.0 / 19 + a2 * (1.0 / 21 + a2 * (-1.0 / 23)))))))))))
        var r = offset + a * sum
        if invert { r = pi / 2 - r }
        return x < 0 ? -r : r
    }

    /// atan2(y, x) in (−π, π]; 0 for (0, 0).
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

    /// sin(a): reduced to [−π/2, π/2] (sin(x) = sin(π − x)), then 11 terms of the Taylor series.
    public static func sin(_ a: Double) -> Double {
        let twoPi = 2 * pi
        var x = a - (a / twoPi).rounded() * twoPi  // [−π, π]
        if x > pi / 2 { x = pi - x } else if x < -pi / 2 { x = -pi - x }
        let x2 = x * x
        var term = x, sum = 0.0, k = 1.0
        for _ in 0..<11 {
            sum += term
            term *= -x2 / ((k + 1) * (k + 2))
            k += 2
        }
        return sum
    }

    public static func cos(_ a: Double) -> Double { sin(a + pi / 2) }
}
