/// The path of one finger, as a shape recognizer sees it: millimetres (for geometry) and
/// normalized positions (for regions and the reported centre), in contiguous reusable arrays.
///
/// A Stroke is kept for the life of its owner and cleared with `removeAll()`, which keeps the
/// capacity: after the first few gestures, appending allocates nothing. Its length and box grow
/// with each sample, so reading them at lift costs nothing.
public struct Stroke: Sendable {
    public private(set) var mm: [Point] = []
    public private(set) var positions: [Point] = []
    /// Length of the path in millimetres: the segments added up in order, as they came.
    public private(set) var lengthMM = 0.0
    /// Bounding box in millimetres.
    public private(set) var boxMM = Rect.empty

    public init(capacity: Int = 512) {
        mm.reserveCapacity(capacity)
        positions.reserveCapacity(capacity)
    }

    @inlinable public var count: Int { mm.count }
    @inlinable public var isEmpty: Bool { mm.isEmpty }

    /// Appends a sample. Samples that repeat the previous millimetre position add nothing
    /// to the shape and are skipped (a finger at rest reports the same point over and over;
    /// the shape recognizers sharing a stroke each offer the same sample: SharedStroke).
    @inline(__always)
    public mutating func append(mm p: Point, position: Point) {
        if let last = mm.last, last == p { return }
        add(p, position)
    }

    @inline(never)
    private mutating func add(_ p: Point, _ position: Point) {
        if let last = mm.last { lengthMM += last.distance(to: p) }
        boxMM.include(p)
        mm.append(p)
        positions.append(position)
    }

    public mutating func removeAll() {
        mm.removeAll(keepingCapacity: true)
        positions.removeAll(keepingCapacity: true)
        lengthMM = 0
        boxMM = .empty
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
