/// The path of one finger, as a shape recognizer sees it: millimetres (for geometry) and
/// normalized positions (for regions and the reported centre), in one contiguous reusable array.
///
/// A Stroke is kept for the life of its owner and cleared with `removeAll()`, which keeps the
/// capacity: after the first few gestures, appending allocates nothing. Its length and box grow
/// with each sample, so reading them at lift costs nothing.
public struct Stroke: Sendable {
    /// Where the finger was, in millimetres and in normalized screen coordinates. One array of
    /// both rather than two: a sample is appended with one uniqueness check.
    public struct Sample: Sendable, Equatable {
        public var mm: Point
        public var position: Point
    }

    public private(set) var samples: [Sample] = []
    /// Length of the path in millimetres: the segments added up in order, as they came.
    public private(set) var lengthMM = 0.0
    /// Bounding box in millimetres.
    public private(set) var boxMM = Rect.empty

    public init(capacity: Int = 512) {
        samples.reserveCapacity(capacity)
    }

    @inlinable public var count: Int { samples.count }
    @inlinable public var isEmpty: Bool { samples.isEmpty }
    /// The millimetre path and the normalized one, read in place.
    public var mm: LazyMapCollection<[Sample], Point> { samples.lazy.map { $0.mm } }
    public var positions: LazyMapCollection<[Sample], Point> { samples.lazy.map { $0.position } }

    /// Appends a sample. Samples that repeat the previous millimetre position add nothing
    /// to the shape and are skipped (a finger at rest reports the same point over and over;
    /// the shape recognizers sharing a stroke each offer the same sample: SharedStroke).
    @inline(__always)
    public mutating func append(mm p: Point, position: Point) {
        if repeatsLast(p) { return }
        add(p, position)
    }

    /// True when `p` is the last sample's millimetre position: `append` skips it.
    @inline(__always)
    private func repeatsLast(_ p: Point) -> Bool {
        if let last = samples.last, last.mm == p { return true }
        return false
    }

    /// In line: its callers are the arena's offer for the shapes it does not hand the frame (the
    /// usual frame of a one-finger stroke) and recognizers' paths already out of line (speed:
    /// docs/architecture.md).
    @inline(__always)
    private mutating func add(_ p: Point, _ position: Point) {
        if let last = samples.last { lengthMM += last.mm.distance(to: p) }
        boxMM.include(p)
        samples.append(Sample(mm: p, position: position))
    }

    public mutating func removeAll() {
        samples.removeAll(keepingCapacity: true)
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
        guard count >= 2, let first = samples.first?.mm else { return }
        let length = lengthMM
        guard length > 0, samples.count >= 2 else {
            out.append(first)
            return
        }
        let step = length / Double(count - 1)
        out.append(first)
        var prev = first
        var carried = 0.0  // distance covered since the last emitted point
        var i = 1
        while i < samples.count, out.count < count - 1 {
            let next = samples[i].mm
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
        let end = samples[samples.count - 1].mm
        while out.count < count - 1 { out.append(end) }
        out.append(end)
    }
}
