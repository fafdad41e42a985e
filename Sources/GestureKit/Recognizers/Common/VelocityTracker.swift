/// Velocity of a moving point over the last `window` seconds, from a fixed ring of samples
/// (no allocation after init). Both millimetres and normalized coordinates are tracked, so
/// that a fling can be projected in either unit.
///
/// One ring of samples, indices wrapped by a comparison: pan adds a sample on every frame and
/// measures the velocity for every event. The ring is memory the tracker owns: not an array
/// (its uniqueness and bounds checks) nor an InlineArray (it copied itself whole on every
/// element read; speed: docs/architecture.md). It lives in an `OwnedBuffer` (freed with its
/// last holder, not by a noncopyable value's deinit, which Swift 6.0.3 ran too early); a
/// recognizer holds its one tracker and never copies it (a copy would share the ring).
public struct VelocityTracker {
    private struct Sample {
        var time: Double
        var mm: Point
        var position: Point
    }

    private let samples: UnsafeMutablePointer<Sample>
    private let ring: OwnedBuffer<Sample>
    private let capacity: Int
    private var head = 0
    private var count = 0
    public var window: Double

    public init(window: Double = 0.1, capacity: Int = 32) {
        precondition(capacity > 0, "a velocity tracker holds at least one sample")
        self.window = window
        self.capacity = capacity
        ring = OwnedBuffer(repeating: Sample(time: 0, mm: .zero, position: .zero), count: capacity)
        samples = ring.base
    }

    public mutating func removeAll() {
        head = 0
        count = 0
    }

    @inline(__always)
    public mutating func add(time: Double, mm p: Point, position q: Point) {
        samples[head] = Sample(time: time, mm: p, position: q)
        head &+= 1  // < capacity
        if head == capacity { head = 0 }
        if count < capacity { count &+= 1 }
    }

    /// Velocity per second between the newest sample and the oldest one inside the window
    /// ending at the newest sample. Zero with fewer than two samples in the window: a finger
    /// that rested before lifting was not flung.
    public func velocity() -> (mm: Point, position: Point) {
        guard count >= 2 else { return (.zero, .zero) }
        let cap = capacity
        let newest = head == 0 ? cap - 1 : head - 1
        let t1 = samples[newest].time
        var oldest = newest
        var j = newest
        var i = 1
        while i < count {
            j = j == 0 ? cap - 1 : j - 1
            if t1 - samples[j].time > window { break }
            oldest = j
            i += 1
        }
        let dt = t1 - samples[oldest].time
        guard oldest != newest, dt > 1e-6 else { return (.zero, .zero) }
        return ((samples[newest].mm - samples[oldest].mm) / dt, (samples[newest].position - samples[oldest].position) / dt)
    }
}
