/// Binary logistic regression with an L2 penalty, fitted by Newton's method (iteratively
/// reweighted least squares; Hastie, Tibshirani, Friedman, "The Elements of Statistical
/// Learning", §4.4.1). Features are standardized before fitting, so that one penalty suits
/// them all, and the weights are returned for the raw features.
public enum LogisticRegression {
    public struct Fit: Sendable, Equatable {
        public var bias: Double
        public var weights: [Double]
    }

    /// `rows`: one feature vector per example; `labels`: true for the positive class.
    /// `penalty`: λ of λ/2 · |w|² on the standardized weights (the bias is not penalized).
    public static func fit(_ rows: [[Double]], _ labels: [Bool], penalty: Double = 1, iterations: Int = 50) -> Fit {
        precondition(rows.count == labels.count && !rows.isEmpty)
        let d = rows[0].count
        var mean = [Double](repeating: 0, count: d), sd = [Double](repeating: 0, count: d)
        for r in rows { for j in 0..<d { mean[j] += r[j] } }
        for j in 0..<d { mean[j] /= Double(rows.count) }
        for r in rows { for j in 0..<d { sd[j] += (r[j] - mean[j]) * (r[j] - mean[j]) } }
        for j in 0..<d { sd[j] = max((sd[j] / Double(rows.count)).squareRoot(), 1e-9) }
        // Design matrix with a leading 1 for the bias.
        let z = rows.map { r in [1.0] + (0..<d).map { (r[$0] - mean[$0]) / sd[$0] } }
        let n = d + 1
        var w = [Double](repeating: 0, count: n)
        for _ in 0..<iterations {
            var gradient = [Double](repeating: 0, count: n)
            var hessian = [[Double]](repeating: [Double](repeating: 0, count: n), count: n)
            for (k, x) in z.enumerated() {
                var s = 0.0
                for j in 0..<n { s += w[j] * x[j] }
                let p = 1 / (1 + exp(-s))
                let y: Double = labels[k] ? 1 : 0
                for j in 0..<n {
                    gradient[j] += (p - y) * x[j]
                    for m in 0..<n { hessian[j][m] += p * (1 - p) * x[j] * x[m] }
                }
            }
            for j in 1..<n {
                gradient[j] += penalty * w[j]
                hessian[j][j] += penalty
            }
            let step = solve(hessian, gradient)
            var size = 0.0
            for j in 0..<n { w[j] -= step[j]; size = max(size, abs(step[j])) }
            if size < 1e-10 { break }
        }
        var bias = w[0]
        var weights = [Double](repeating: 0, count: d)
        for j in 0..<d {
            weights[j] = w[j + 1] / sd[j]
            bias -= w[j + 1] * mean[j] / sd[j]
        }
        return Fit(bias: bias, weights: weights)
    }

    /// e^x by squaring: the standard library has no exp, and this is off the per-event path.
    static func exp(_ x: Double) -> Double {
        if x > 700 { return .infinity }
        if x < -700 { return 0 }
        let k = (x / 0.6931471805599453).rounded()
        let r = x - k * 0.6931471805599453  // |r| ≤ ln2/2
        var term = 1.0, sum = 1.0
        for i in 1...20 {
            term *= r / Double(i)
            sum += term
        }
        return Double(sign: .plus, exponent: Int(k), significand: 1) * sum
    }

    /// Solves A·x = b by Gaussian elimination with partial pivoting (A is small and, with the
    /// penalty, positive definite).
    static func solve(_ a: [[Double]], _ b: [Double]) -> [Double] {
        var m = a, v = b
        let n = v.count
        for c in 0..<n {
            var pivot = c
            for r in c..<n where abs(m[r][c]) > abs(m[pivot][c]) { pivot = r }
            m.swapAt(c, pivot)
            v.swapAt(c, pivot)
            let p = m[c][c]
            guard abs(p) > 1e-300 else { continue }
            for r in (c + 1)..<n {
                let f = m[r][c] / p
                if f == 0 { continue }
                for k in c..<n { m[r][k] -= f * m[c][k] }
                v[r] -= f * v[c]
            }
        }
        var x = [Double](repeating: 0, count: n)
        for r in stride(from: n - 1, through: 0, by: -1) {
            var s = v[r]
            for k in (r + 1)..<n { s -= m[r][k] * x[k] }
            x[r] = abs(m[r][r]) > 1e-300 ? s / m[r][r] : 0
        }
        return x
    }
}
