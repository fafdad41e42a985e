/// The logarithm the checkmark's leg ratio needs; GestureKit uses only the standard library,
/// which has none. (The trigonometry is in Angle.)
public enum ShapeMath {
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
