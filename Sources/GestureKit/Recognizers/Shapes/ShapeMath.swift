/// The few transcendental functions the shape recognizers need. GestureKit uses only the
/// standard library, which has no atan2, sin, cos or log.
public enum ShapeMath {
    /// atan2(y, x) in (−π, π], to about 1e-9 rad: an argument reduction to |t| ≤ tan(π/12)
    /// then a short Taylor series.
    public static func atan2(_ y: Double, _ x: Double) -> Double {
        if x == 0 && y == 0 { return 0 }
        let ax = abs(x), ay = abs(y)
        // Angle in [0, π/2] of (ax, ay).
        let swap = ay > ax
        var t = swap ? ax / ay : ay / ax  // in [0, 1]
        var base = 0.0
        // Reduce t to ≤ tan(π/12) with atan(t) = π/6 + atan((t√3 − 1)/(t + √3)).
        let tan15 = 0.2679491924311227
        if t > tan15 {
            let s3 = 1.7320508075688772
            t = (t * s3 - 1) / (t + s3)
            base = Double.pi / 6
        }
        let t2 = t * t
        // atan(t) = t − t³/3 + t⁵/5 − … ; |t| ≤ 0.268 → 11 terms ≈ 1e-14.
        var term = t, sum = 0.0, k = 1.0
        for i in 0..<12 {
            sum += (i % 2 == 0 ? term : -term) / k
            term *= t2
            k += 2
        }
        var a = base + sum
        if swap { a = Double.pi / 2 - a }
        if x < 0 { a = Double.pi - a }
        return y < 0 ? -a : a
    }

    /// cos and sin for drawing and for synthetic strokes (Taylor series after reduction to [−π, π]).
    public static func cos(_ a: Double) -> Double { sin(a + Double.pi / 2) }

    public static func sin(_ a: Double) -> Double {
        let twoPi = 2 * Double.pi
        var x = a - (a / twoPi).rounded() * twoPi  // [−π, π]
        // sin(x) = sin(π − x): keep |x| ≤ π/2 for fast convergence.
        if x > Double.pi / 2 { x = Double.pi - x } else if x < -Double.pi / 2 { x = -Double.pi - x }
        let x2 = x * x
        var term = x, sum = 0.0, k = 1.0
        for _ in 0..<11 {
            sum += term
            term *= -x2 / ((k + 1) * (k + 2))
            k += 2
        }
        return sum
    }

    /// Natural logarithm of x > 0 (nan otherwise): x = m · 2^e with m in [1, 2), then
    /// ln m = 2 atanh((m − 1)/(m + 1)), whose series converges fast for a ratio ≤ 1/3.
    public static func log(_ x: Double) -> Double {
        guard x > 0, x.isFinite else { return x == 0 ? -.infinity : (x.isInfinite ? x : .nan) }
        let e = Double(x.exponent)
        let m = x.significand
        let z = (m - 1) / (m + 1), z2 = z * z
        var term = z, sum = 0.0, k = 1.0
        for _ in 0..<16 {
            sum += term / k
            term *= z2
            k += 2
        }
        return e * 0.6931471805599453 + 2 * sum
    }
}
