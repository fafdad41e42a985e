/// A circle fitted to points: Taubin's algebraic fit, as written by Chernov ("Circular and Linear
/// Regression", CircleFitByTaubin): moments about the centroid, then Newton's method on the
/// characteristic polynomial from x = 0, which converges to the root wanted.
///
/// The moment z = x² + y² (a public Swift port writes `Xi*Xi + Yi+Yi`, which breaks the fit for
/// any circle away from the centroid's axes; see the unit test that catches it).
public struct CircleFit: Sendable, Equatable {
    public var center: Point
    public var radius: Double

    public init(center: Point, radius: Double) {
        self.center = center
        self.radius = radius
    }

    /// Fits a circle; nil for fewer than 3 points or a degenerate (collinear) set.
    public static func taubin(_ points: [Point]) -> CircleFit? {
        let n = points.count
        guard n >= 3 else { return nil }
        var meanX = 0.0, meanY = 0.0
        for p in points {
            meanX += p.x
            meanY += p.y
        }
        meanX /= Double(n)
        meanY /= Double(n)

        var mxx = 0.0, myy = 0.0, mxy = 0.0, mxz = 0.0, myz = 0.0, mzz = 0.0
        for p in points {
            let xi = p.x - meanX
            let yi = p.y - meanY
            let zi = xi * xi + yi * yi
            mxy += xi * yi
            mxx += xi * xi
            myy += yi * yi
            mxz += xi * zi
            myz += yi * zi
            mzz += zi * zi
        }
        let dn = Double(n)
        mxx /= dn; myy /= dn; mxy /= dn; mxz /= dn; myz /= dn; mzz /= dn

        let mz = mxx + myy
        let covXY = mxx * myy - mxy * mxy
        let varZ = mzz - mz * mz
        let a3 = 4 * mz
        let a2 = -3 * mz * mz - mzz
        let a1 = varZ * mz + 4 * covXY * mz - mxz * mxz - myz * myz
        let a0 = mxz * (mxz * myy - myz * mxy) + myz * (myz * mxx - mxz * mxy) - varZ * covXY
        let a22 = a2 + a2
        let a33 = a3 + a3 + a3

        var x = 0.0
        var y = a0
        for _ in 0..<99 {
            let dy = a1 + x * (a22 + a33 * x)
            let xNew = x - y / dy
            if xNew == x || !xNew.isFinite { break }
            let yNew = a0 + xNew * (a1 + xNew * (a2 + xNew * a3))
            if abs(yNew) >= abs(y) { break }
            x = xNew
            y = yNew
        }

        let det = x * x - x * mz + covXY
        guard det != 0, det.isFinite else { return nil }
        let cx = (mxz * (myy - x) - myz * mxy) / det / 2
        let cy = (myz * (mxx - x) - mxz * mxy) / det / 2
        let r2 = cx * cx + cy * cy + mz
        guard cx.isFinite, cy.isFinite, r2 > 0 else { return nil }
        return CircleFit(center: Point(x: cx + meanX, y: cy + meanY), radius: r2.squareRoot())
    }
}
