/// The path of one finger, as a shape recognizer sees it: millimetres (for geometry), normalized
/// positions (for regions and the reported centre) and times, in contiguous reusable arrays.
///
/// A recognizer keeps one Stroke for its whole life and clears it with `removeAll()`, which keeps
/// the capacity: after the first few gestures, appending allocates nothing.
public struct Stroke: Sendable {
    public private(set) var mm: [Point] = []
    public private(set) var positions: [Point] = []
    public private(set) var times: [Double] = []

    public init(capacity: Int = 512) {
        mm.reserveCapacity(capacity)
        positions.reserveCapacity(capacity)
        times.reserveCapacity(capacity)
    }

    @inlinable public var count: Int { mm.count }
    @inlinable public var isEmpty: Bool { mm.isEmpty }

    /// Appends a sample. Samples that repeat the previous millimetre position add nothing
    /// to the shape and are skipped (a finger at rest reports the same point over and over).
    public mutating func append(mm p: Point, position: Point, time: Double) {
        if let last = mm.last, last == p { return }
        mm.append(p)
        positions.append(position)
        times.append(time)
    }

    public mutating func removeAll() {
        mm.removeAll(keepingCapacity: true)
        positions.removeAll(keepingCapacity: true)
        times.removeAll(keepingCapacity: true)
    }

    /// Length of the path in millimetres.
    public var lengthMM: Double {
        var total = 0.0
        var i = 1
        while i < mm.count {
            total += mm[i - 1].distance(to: mm[i])
            i += 1
        }
        return total
    }

    /// Bounding box in millimetres.
    public var boxMM: Rect {
        var r = Rect.empty
        for p in mm { r.include(p) }
        return r
    }

    /// Resamples the millimetre path into `count` points evenly spaced along its length (the first
    /// and last points kept), written into `out` (cleared first, capacity kept).
    ///
    /// Why: a finger slows down in curves and at the ends, so raw samples bunch up there and any
    /// per-sample statistic (a circle fit, a turning profile) would weight those parts more.
    /// Evenly spaced points weight the shape by its length instead.
    public func resample(count: Int, into out: inout [Point]) {
        out.removeAll(keepingCapacity: true)
        guard count >= 2, let first = mm.first else { return }
        let length = lengthMM
        guard length > 0, mm.count >= 2 else {
            out.append(first)
            return
        }
        let step = length / Double(count - 1)
        out.append(first)
        var prev = first
        var carried = 0.0  // distance covered since the last emitted point
        var i = 1
        while i < mm.count, out.count < count - 1 {
            let next = mm[i]
            let seg = prev.distance(to: next)
            if carried + seg >= step, seg > 0 {
                let t = (step - carried) / seg
                let q = prev + (next - prev) * t
                out.append(q)
                prev = q
                carried = 0
            } else {
                carried += seg
                prev = next
                i += 1
            }
        }
        // Rounding can leave the last point or two unemitted; the end of the path closes it.
        while out.count < count - 1 { out.append(mm[mm.count - 1]) }
        out.append(mm[mm.count - 1])
    }
}
