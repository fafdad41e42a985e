@testable import GestureKit

/// One synthetic finger: lands at `down`, lifts at `up`, is at `path(t)` (mm) in between.
struct Finger {
    var id: Int32
    var down: Double
    var up: Double
    var path: (Double) -> Point
}

/// Builds frames as a tracker would: every finger down is in every frame, with phase began on
/// its first frame and ended on its last. Optional deterministic jitter (mm) models noisy sensors.
struct Touches {
    var surface = Surface(widthMM: 200, heightMM: 120, isDirect: true)
    var dt = 0.01
    var jitterMM = 0.0
    private var seed: UInt64 = 0x9E37_79B9_7F4A_7C15

    init(surface: Surface = Surface(widthMM: 200, heightMM: 120, isDirect: true), jitterMM: Double = 0, seed: UInt64 = 0) {
        self.surface = surface
        self.jitterMM = jitterMM
        self.seed ^= seed &* 0xD1B5_4A32_D192_ED03
    }

    mutating func noise() -> Double {
        seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return (Double(seed >> 11) / Double(1 << 53) * 2 - 1) * jitterMM
    }

    /// A number drawn evenly from `range` (deterministic: the same sequence every run).
    mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return range.lowerBound + Double(seed >> 11) / Double(1 << 53) * (range.upperBound - range.lowerBound)
    }

    func contact(_ id: Int32, _ phase: ContactPhase, _ p: Point) -> Contact {
        Contact(id: id, slot: id, phase: phase, mm: p, position: surface.normalized(p))
    }

    mutating func frames(_ fingers: [Finger]) -> [TouchFrame] {
        guard let start = fingers.map(\.down).min(), let end = fingers.map(\.up).max() else { return [] }
        var out: [TouchFrame] = []
        var began = Set<Int32>()
        var k = 0.0
        var t = start
        while t <= end + dt / 2 {
            defer { k += 1; t = ((start + k * dt) * 1e9).rounded() / 1e9 }
            var f = TouchFrame(time: t, surface: surface)
            for g in fingers where t + 1e-9 >= g.down && !(t - dt + 1e-9 >= g.up) {
                let lifting = t + 1e-9 >= g.up
                let time = lifting ? g.up : t
                var p = g.path(time)
                if jitterMM > 0 { p = Point(x: p.x + noise(), y: p.y + noise()) }
                let phase: ContactPhase = !began.contains(g.id) ? .began : (lifting ? .ended : .moved)
                began.insert(g.id)
                f.contacts.append(contact(g.id, phase, p))
            }
            if !f.contacts.isEmpty { out.append(f) }
        }
        return out
    }
}

extension Touches {
    /// Frames as panels that send one contact per HID report make them (eGalax, Atmel,
    /// PenMount …): a report every `report` seconds updates one contact, in turn, so each frame
    /// moves one finger and carries the others `stationary` where they last reported. A finger
    /// lands and lifts in its own report.
    ///
    /// `report` is the time between reports, or with `uneven` a range it is drawn from (seeded).
    mutating func framesOneContactPerReport(_ fingers: [Finger], report: Double, uneven: ClosedRange<Double>? = nil) -> [TouchFrame] {
        guard let start = fingers.map(\.down).min() else { return [] }
        var out: [TouchFrame] = []
        var last: [Int32: Point] = [:]
        var done = Set<Int32>()
        var turn = 0
        var t = start
        while done.count < fingers.count {
            defer { t += uneven.map { uniform($0) } ?? report }
            // Whose report this is: the next finger in turn that is due (down, not yet lifted).
            let due = fingers.filter { t + 1e-9 >= $0.down && !done.contains($0.id) }
            guard !due.isEmpty else { continue }
            let g = due[turn % due.count]
            turn += 1
            if let f = reportFrame(g, sampledAt: t, at: t, fingers, last: &last, done: &done) { out.append(f) }
        }
        return out
    }
}

extension Touches {
    /// Frames as a panel that sends one contact per HID report makes them when its scans come
    /// unevenly (an emulated guest, a loaded host, a panel at 40–100 Hz): scans `scanGap` apart
    /// (drawn from the range, seeded), each sampling every finger at the scan's time, then one
    /// report per finger `reportGap` apart (drawn likewise: a starved sender), each a frame of
    /// its own moving that finger (the others `stationary` where they last reported); the next
    /// scan after the last report. As the kernel does, a report that changes
    /// nothing makes no frame. A finger lands and lifts in its own report.
    mutating func framesScannedOneContactPerReport(_ fingers: [Finger], scanGap: ClosedRange<Double>,
                                                   reportGap: ClosedRange<Double> = 0.001...0.001) -> [TouchFrame] {
        guard let start = fingers.map(\.down).min() else { return [] }
        var out: [TouchFrame] = []
        var last: [Int32: Point] = [:]
        var done = Set<Int32>()
        var t = start
        while done.count < fingers.count {
            var time = t
            defer { t = max(t + uniform(scanGap), time + 0.001) }
            for g in fingers where t + 1e-9 >= g.down && !done.contains(g.id) {
                guard let f = reportFrame(g, sampledAt: t, at: time, fingers, last: &last, done: &done, skipUnmoved: true) else { continue }
                time += uniform(reportGap)
                out.append(f)
            }
        }
        return out
    }
}

/// Straight line from a to b between t0 and t1 (clamped).
func line(_ a: Point, _ b: Point, _ t0: Double, _ t1: Double) -> (Double) -> Point {
    { t in
        let u = t1 > t0 ? min(max((t - t0) / (t1 - t0), 0), 1) : 1
        return a + (b - a) * u
    }
}

func still(_ p: Point) -> (Double) -> Point { { _ in p } }

/// Feeds frames to an arena the way the daemon does: timers fire at their deadline between
/// frames, and after the last frame until nothing is pending.
func run(_ arena: GestureArena, _ frames: [TouchFrame], until end: Double? = nil) -> [GestureEvent] {
    var out: [GestureEvent] = []
    for f in frames {
        arena.fireDeadlines(until: f.time) { out.append($0) }
        arena.handle(f) { out.append($0) }
    }
    arena.fireDeadlines(until: end ?? .infinity) { out.append($0) }
    return out
}

/// Feeds frames to one recognizer directly (no arena), ticking at its deadlines.
func run(_ r: any GestureRecognizer, _ frames: [TouchFrame]) -> [GestureEvent] {
    var out: [GestureEvent] = []
    for f in frames {
        r.fireDeadlines(until: f.time, events: &out)
        r.handle(f, events: &out)
    }
    r.fireDeadlines(until: .infinity, events: &out)
    return out
}

func P(_ x: Double, _ y: Double) -> Point { Point(x: x, y: y) }

func summary(_ events: [GestureEvent]) -> [String] {
    events.map { "\($0.kind.rawValue).\($0.phase.rawValue)" }
}

/// Every pan in `events` (if any) began provisionally and was cancelled before the `winner`'s
/// event, and never ended: it gave way.
func gaveWay(_ events: [GestureEvent], to winner: GestureKind) -> Bool {
    guard let w = events.firstIndex(where: { $0.kind == winner }) else { return false }
    let pans = events.filter { $0.kind == .pan }
    if pans.isEmpty { return true }
    guard let c = events.firstIndex(where: { $0.kind == .pan && $0.phase == .cancelled }) else { return false }
    return c < w && !pans.contains { $0.phase == .ended } && pans.filter { $0.phase == .cancelled }.count == 1
}

extension Touches {
    /// One finger's report as a frame of its own, at `time`: the finger where it was at
    /// `sample` (it lands and lifts in its own report), the others `stationary` where they last
    /// reported. With `skipUnmoved`, a report that moves nothing makes no frame, as in the kernel.
    mutating func reportFrame(_ g: Finger, sampledAt sample: Double, at time: Double, _ fingers: [Finger],
                         last: inout [Int32: Point], done: inout Set<Int32>, skipUnmoved: Bool = false) -> TouchFrame? {
        let lifting = sample + 1e-9 >= g.up
        var p = g.path(min(sample, g.up))
        if jitterMM > 0 { p = Point(x: p.x + noise(), y: p.y + noise()) }
        let phase: ContactPhase = last[g.id] == nil ? .began : (lifting ? .ended : .moved)
        if skipUnmoved && phase == .moved && last[g.id] == p { return nil }
        var f = TouchFrame(time: time, surface: surface)
        for h in fingers where h.id != g.id && !done.contains(h.id) {
            if let q = last[h.id] { f.contacts.append(contact(h.id, .stationary, q)) }
        }
        f.contacts.append(contact(g.id, phase, p))
        last[g.id] = p
        if lifting { done.insert(g.id) }
        return f
    }
}
