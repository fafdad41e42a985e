import Glibc

/// Whether someone is using the kiosk, for the fleet: the time of the last touch and "in use"
/// (a touch in the last `window` seconds). Each answers what to publish now; the fleet retains it.
/// While people keep touching, the last touch is republished at most every `interval` seconds
/// (a touch-down per stroke would otherwise be a message per stroke); when the kiosk falls idle
/// the exact last touch goes out with "in use" off.
struct KioskUsage {
    /// What changed: the last touch's wall-clock time to publish, and "in use" when it flipped.
    struct Update: Equatable {
        var lastTouch: Double?
        var inUse: Bool?
    }

    var window: Double
    let interval: Double
    private(set) var inUse = false
    /// The latest touch: monotonic (for the window) and wall-clock (for Home Assistant) seconds.
    private var last: (mono: Double, wall: Double)?
    private var publishedMono = -Double.infinity
    private var publishedWall: Double?

    init(window: Double, interval: Double = 10) {
        self.window = window
        self.interval = interval
    }

    /// When "in use" turns off, unless touched before.
    var deadline: Double? { inUse ? last.map { $0.mono + window } : nil }

    mutating func touched(mono: Double, wall: Double) -> Update {
        last = (mono, wall)
        var u = Update()
        if !inUse { inUse = true; u.inUse = true }
        if mono - publishedMono >= interval || u.inUse == true {
            publishedMono = mono
            publishedWall = wall
            u.lastTouch = wall
        }
        return u
    }

    mutating func due(now: Double) -> Update {
        guard let d = deadline, d <= now, let last else { return Update() }
        inUse = false
        let exact = publishedWall == last.wall ? nil : last.wall
        publishedWall = last.wall
        return Update(lastTouch: exact, inUse: false)
    }

    /// Seconds since the epoch as Home Assistant's timestamp sensors take them: ISO 8601, UTC.
    static func timestamp(_ epoch: Double) -> String {
        var t = time_t(epoch.rounded(.down))
        var tm = Glibc.tm()
        gmtime_r(&t, &tm)
        func two(_ v: Int32) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let ms = Int((epoch - epoch.rounded(.down)) * 1000)
        let millis = ms < 10 ? "00\(ms)" : ms < 100 ? "0\(ms)" : "\(ms)"
        return "\(tm.tm_year + 1900)-\(two(tm.tm_mon + 1))-\(two(tm.tm_mday))T\(two(tm.tm_hour)):\(two(tm.tm_min)):\(two(tm.tm_sec)).\(millis)+00:00"
    }

    static func wallClock() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
