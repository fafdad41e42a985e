@testable import GestureKit

/// Synthetic one-finger strokes in millimetres, and a way to play them into a recognizer.
enum Synthetic {
    static let pi = Double.pi

    /// A deterministic pseudo-random generator (SplitMix64): reproducible jitter.
    struct Noise {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            return Double(z >> 11) / Double(1 << 53) * 2 - 1  // [-1, 1)
        }
    }

    static func polyline(_ corners: [Point], step: Double = 1) -> [Point] {
        var out: [Point] = []
        for i in 1..<corners.count {
            let a = corners[i - 1], b = corners[i]
            let n = max(1, Int(a.distance(to: b) / step))
            for k in 0..<n { out.append(a + (b - a) * (Double(k) / Double(n))) }
        }
        out.append(corners[corners.count - 1])
        return out
    }

    /// An arc around `c`, from angle `from` sweeping `turns` (> 0 clockwise on screen, y down).
    static func arc(center c: Point = Point(x: 100, y: 100), radius r: Double, from: Double = -pi / 2,
                    turns: Double, points n: Int = 120, radiusGrowth: Double = 0) -> [Point] {
        (0...n).map { i in
            let t = Double(i) / Double(n)
            let a = from + t * turns * 2 * pi
            let rr = r * (1 + radiusGrowth * t)
            return Point(x: c.x + rr * Angle.cos(a), y: c.y + rr * Angle.sin(a))
        }
    }

    static func ellipse(rx: Double, ry: Double, turns: Double = 1.05, center c: Point = Point(x: 100, y: 100)) -> [Point] {
        arc(center: c, radius: 1, turns: turns).map { p in
            Point(x: c.x + (p.x - c.x) * rx, y: c.y + (p.y - c.y) * ry)
        }
    }

    /// A rounded rectangle walked clockwise from the middle of its top side; `rho` is the corner
    /// radius as a fraction of the smaller half side (0 = sharp, 1 = a stadium or circle).
    static func roundedRect(halfW: Double, halfH: Double, rho: Double, center c: Point = Point(x: 100, y: 100)) -> [Point] {
        let rc = rho * min(halfW, halfH)
        var pts: [Point] = [Point(x: c.x, y: c.y - halfH)]
        let corners = [(halfW - rc, -halfH + rc, -pi / 2), (halfW - rc, halfH - rc, 0.0),
                       (-halfW + rc, halfH - rc, pi / 2), (-halfW + rc, -halfH + rc, pi)]
        for (cx, cy, a0) in corners {
            for k in 0...12 {
                let a = a0 + Double(k) / 12 * pi / 2
                pts.append(Point(x: c.x + cx + rc * Angle.cos(a), y: c.y + cy + rc * Angle.sin(a)))
            }
        }
        pts.append(Point(x: c.x + 2, y: c.y - halfH))
        return polyline(pts)
    }

    static func transformed(_ pts: [Point], scale: Double = 1, rotation: Double = 0, jitter: Double = 0, seed: UInt64 = 1) -> [Point] {
        var noise = Noise(seed: seed)
        let c = pts[0]
        let cs = Angle.cos(rotation), sn = Angle.sin(rotation)
        return pts.map { p in
            let d = (p - c) * scale
            let q = Point(x: d.x * cs - d.y * sn, y: d.x * sn + d.y * cs)
            return Point(x: 100 + q.x + jitter * noise.next(), y: 100 + q.y + jitter * noise.next())
        }
    }

    static let surface = Surface(widthMM: 300, heightMM: 200, isDirect: true)

    /// Plays a stroke as frames (one contact, `dt` seconds apart: 10 ms by default) and returns
    /// the events produced. `extraFinger`: a second finger lands at that sample index.
    @discardableResult
    static func play(_ pts: [Point], into r: any GestureRecognizer, id: Int32 = 1, dt: Double = 0.01,
                     extraFinger: Int? = nil, cancelAt: Int? = nil, lift: Bool = true) -> [GestureEvent] {
        var events: [GestureEvent] = []
        for (i, p) in pts.enumerated() {
            var phase: ContactPhase = i == 0 ? .began : .moved
            if lift && i == pts.count - 1 { phase = .ended }
            if cancelAt == i { phase = .cancelled }
            var frame = TouchFrame(time: Double(i) * dt, surface: surface,
                                   contacts: [Contact(id: id, slot: 0, phase: phase, mm: p, position: surface.normalized(p))])
            if let k = extraFinger, i >= k {
                let q = Point(x: 20, y: 20)
                frame.contacts.append(Contact(id: id + 1, slot: 1, phase: i == k ? .began : .stationary,
                                              mm: q, position: surface.normalized(q)))
            }
            r.handle(frame, events: &events)
            if cancelAt == i { break }
        }
        return events
    }
}
