import Testing
@testable import GestureKit

/// Every gesture carries the region it happens in: the one containing its centre when it is
/// recognized or begins (swipes and edge swipes: their start point), kept over a continuous
/// gesture's later phases.
@Suite struct RegionTests {
    // Surface 200 × 120 mm: the panel is 20…180 × 12…108 mm, the left strip 0…10 mm.
    let panel = Region(name: "panel", rect: Rect(minX: 0.1, minY: 0.1, maxX: 0.9, maxY: 0.9))
    let strip = Region(name: "strip", rect: Rect(minX: 0, minY: 0, maxX: 0.05, maxY: 1))

    /// A path through `points`, one every 10 ms from t = 0.
    func sampled(_ points: [Point]) -> (Double) -> Point {
        { t in points[min(max(Int((t / 0.01).rounded()), 0), points.count - 1)] }
    }

    func events(_ fingers: [Finger]) -> [GestureEvent] {
        var s = Touches(jitterMM: 0.2)
        return run(defaultArena(regions: [panel, strip]), s.frames(fingers))
    }

    @Test func everyGestureKindCarriesTheRegionItHappensIn() {
        let here = P(100, 60)
        let check = Synthetic.polyline([P(80, 60), P(95, 78), P(135, 30)], step: 1.5)
        var tickle: [Point] = []
        for k in 0...60 { tickle.append(P(100 + 6 * (1 - cosine(Double(k) / 10 * Angle.pi)), 60)) }
        func spread(_ sign: Double) -> (Double) -> Point {
            { t in let u = t / 0.6; let r = 10 + 30 * u, a = 0.8 * u
                return P(80 + 40 * u + sign * r * cosine(a), 60 + sign * r * sine(a)) }
        }
        let cases: [(GestureKind, [Finger])] = [
            (.circle, [Finger(id: 1, down: 0, up: 1, path: circlePath(center: here, radius: 30, t0: 0, t1: 1))]),
            (.checkmark, [Finger(id: 1, down: 0, up: Double(check.count - 1) * 0.01, path: sampled(check))]),
            (.tickle, [Finger(id: 1, down: 0, up: 0.6, path: sampled(tickle))]),
            (.tap, [Finger(id: 1, down: 0, up: 0.08, path: still(here))]),
            (.longPress, [Finger(id: 1, down: 0, up: 0.9, path: still(here))]),
            (.swipe, [Finger(id: 1, down: 0, up: 0.3, path: line(P(50, 60), P(120, 60), 0, 0.3))]),
            (.pan, [Finger(id: 1, down: 0, up: 0.6, path: { t in
                t < 0.3 ? line(P(50, 30), P(90, 30), 0, 0.3)(t) : line(P(90, 30), P(90, 70), 0.3, 0.6)(t) })]),
            (.pinch, [Finger(id: 1, down: 0, up: 0.6, path: spread(1)), Finger(id: 2, down: 0, up: 0.6, path: spread(-1))]),
        ]
        for (kind, fingers) in cases {
            let e = events(fingers).filter { $0.kind == kind }
            #expect(!e.isEmpty, "\(kind)")
            for ev in e { #expect(ev.region == "panel", "\(kind).\(ev.phase): \(ev.region ?? "nil")") }
        }
        // Pinch and rotate run together with pan on the same touch.
        let two = events(cases.last!.1)
        #expect(Set(two.map(\.kind)) == [.pan, .pinch, .rotate])
        #expect(two.allSatisfy { $0.region == "panel" })
    }

    @Test func anEdgeSwipeNamesWhereItStarted() {
        let e = events([Finger(id: 1, down: 0, up: 0.3, path: line(P(2, 60), P(80, 60), 0, 0.3))])
        #expect(summary(e) == ["edge_swipe.recognized"])
        #expect(e.first?.region == "strip")
    }

    @Test func aPanKeepsTheRegionItBeganIn() {
        // Begins in the panel, ends outside it (x < 20 mm): every phase says "panel".
        let e = events([Finger(id: 1, down: 0, up: 0.8, path: { t in
            t < 0.3 ? line(P(100, 60), P(100, 90), 0, 0.3)(t) : line(P(100, 90), P(12, 90), 0.3, 0.8)(t) })])
        #expect(e.first?.kind == .pan && e.last?.phase == .ended)
        #expect(e.allSatisfy { $0.region == "panel" })
    }

    @Test func outsideEveryRegionThereIsNone() {
        let e = events([Finger(id: 1, down: 0, up: 0.08, path: still(P(15, 60)))])
        #expect(summary(e) == ["tap.recognized"])
        #expect(e.first?.region == nil)
    }
}
