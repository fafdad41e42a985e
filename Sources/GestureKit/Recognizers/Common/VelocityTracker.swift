/// Velocity of a moving point over the last `window` seconds, from a fixed ring of samples
/// (no allocation after init). Both millimetres and normalized coordinates are tracked, so
/// that a fling can be projected in either unit.
public struct VelocityTracker {
    private var times: [Double]
    private var mm: [Point]
    private var position: [Point]
    private var head = 0
    private var count = 0
    public var window: Double

    public init(window: Double = 0.1, capacity: Int = 32) {
        self.window = window
        times = Array(repeating: 0, count: capacity)
        mm = Array(repeating: .zero, count: capacity)
        position = Array(repeating: .zero, count: capacity)
    }

    public mutating func removeAll() {
        head = 0
        count = 0
    }

    public mutating func add(time: Double, mm p: Point, position q: Point) {
        times[head] = time
        mm[head] = p
        position[head] = q
        head = (head + 1) % times.count
        if count < times.count { count += 1 }
    }

    /// Velocity per second between the newest sample and the oldest one inside the window
    /// ending at the newest sample. Zero with fewer than two samples in the window: a finger
    /// that rested before lifting was not flung.
    public func velocity() -> (mm: Point, position: Point) {
        guard count >= 2 else { return (.zero, .zero) }
        let cap = times.count
        let newest = (head - 1 + cap) % cap
        let t1 = times[newest]
        var oldest = newest
        var i = 1
        while i < count {
            let j = (newest - i + cap) % cap
            if t1 - times[j] > window { break }
            oldest = j
            i += 1
        }
        let dt = t1 - times[oldest]
        guard oldest != newest, dt > 1e-6 else { return (.zero, .zero) }
        return ((mm[newest] - mm[oldest]) / dt, (position[newest] - position[oldest]) / dt)
    }
}
