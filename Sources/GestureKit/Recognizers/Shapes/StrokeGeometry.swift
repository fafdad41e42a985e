/// Small geometry on a whole stroke: where a millimetre point lies in normalized screen
/// coordinates, and whether a point is enclosed by the path.
public enum StrokeGeometry {
    /// The normalized screen position of a millimetre point, from the stroke's own samples.
    ///
    /// Why not `Surface.normalized`: normalized positions include the device's calibration
    /// matrix, which the surface does not know. The map from millimetres to positions is affine
    /// (rotation, scale, calibration), so a least-squares affine fit over the stroke's samples
    /// recovers it exactly, whatever the calibration. Falls back to `fallback` when the samples
    /// are (nearly) collinear.
    public static func position(of p: Point, stroke: Stroke, fallback: Point) -> Point {
        let n = stroke.count
        guard n >= 3 else { return fallback }
        // Centre the inputs for numerical stability.
        var mx = 0.0, my = 0.0
        let samples = stroke.samples
        for s in samples { mx += s.mm.x; my += s.mm.y }
        mx /= Double(n); my /= Double(n)
        var sxx = 0.0, sxy = 0.0, syy = 0.0
        var su = Point.zero, sxu = Point.zero, syu = Point.zero
        var i = 0
        while i < n {
            let x = samples[i].mm.x - mx, y = samples[i].mm.y - my
            let u = samples[i].position
            sxx += x * x; sxy += x * y; syy += y * y
            su += u; sxu += u * x; syu += u * y
            i += 1
        }
        let det = sxx * syy - sxy * sxy
        guard det > 1e-9 * (sxx + syy) * (sxx + syy), det.isFinite else { return fallback }
        // u = mean(u) + A·(x, y) with A from the 2×2 normal equations (the centred constant drops out).
        let meanU = su / Double(n)
        let ax = (sxu * syy - syu * sxy) / det
        let ay = (syu * sxx - sxu * sxy) / det
        let x = p.x - mx, y = p.y - my
        return meanU + ax * x + ay * y
    }

    /// Winding number of the path (closed by joining its end to its start) around `p`:
    /// nonzero when the path encloses `p`.
    public static func winding<Path: RandomAccessCollection<Point>>(of p: Point, around path: Path) -> Int
    where Path.Index == Int {
        guard path.count >= 3 else { return 0 }
        var w = 0
        var i = 0
        let start = path.startIndex
        while i < path.count {
            let a = path[start + i]
            let b = path[start + (i + 1) % path.count]
            if a.y <= p.y {
                if b.y > p.y && (b - a).cross(p - a) > 0 { w += 1 }
            } else if b.y <= p.y && (b - a).cross(p - a) < 0 {
                w -= 1
            }
            i += 1
        }
        return w
    }

    /// The first configured region (in config order) that contains `position` (normalized).
    public static func region(containing position: Point, in regions: [Region]) -> Region? {
        regions.first { $0.rect.contains(position) }
    }

    /// The region a closed path encloses: of the regions whose centre the path winds around,
    /// the smallest by area (a circle around a logo inside a larger panel names the logo).
    /// Positions and regions are in normalized screen coordinates.
    public static func enclosedRegion<Path: RandomAccessCollection<Point>>(by path: Path, in regions: [Region]) -> Region?
    where Path.Index == Int {
        var best: Region?
        var bestArea = Double.infinity
        for region in regions where winding(of: region.rect.center, around: path) != 0 {
            let area = region.rect.width * region.rect.height
            if area < bestArea {
                best = region
                bestArea = area
            }
        }
        return best
    }
}
