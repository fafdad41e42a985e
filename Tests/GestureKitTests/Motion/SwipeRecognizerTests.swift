import Testing
@testable import GestureKit

@Suite struct SwipeRecognizerTests {
    func stroke(_ a: Point, _ b: Point, fingers: Int = 1, duration: Double = 0.3, gap: Double = 25) -> [Finger] {
        (0..<fingers).map { i in
            let o = P(Double(i) * gap, 0)
            return Finger(id: Int32(i + 1), down: 0, up: duration, path: line(a + o, b + o, 0, duration))
        }
    }

    @Test func fourDirections() {
        let cases: [(Point, Point, Direction)] = [
            (P(50, 60), P(110, 60), .right), (P(110, 60), P(50, 60), .left),
            (P(80, 20), P(80, 90), .down), (P(80, 90), P(80, 20), .up),
            (P(50, 50), P(110, 80), .right),  // mostly right: four sectors
        ]
        for (a, b, d) in cases {
            var s = Touches(jitterMM: 0.3)
            let e = run(SwipeRecognizer(), s.frames(stroke(a, b)))
            #expect(e.map(\.direction) == [d])
        }
    }

    @Test func eightDirections() {
        var s = Touches()
        let e = run(SwipeRecognizer { $0.directions = 8 }, s.frames(stroke(P(50, 30), P(100, 80))))
        #expect(e.first?.direction == .downRight)
        var s2 = Touches()
        let e2 = run(SwipeRecognizer { $0.directions = 8 }, s2.frames(stroke(P(50, 80), P(100, 30))))
        #expect(e2.first?.direction == .upRight)
    }

    @Test func reportsFingersDistanceSpeed() {
        var s = Touches()
        let e = run(SwipeRecognizer(), s.frames(stroke(P(30, 20), P(30, 80), fingers: 3, duration: 0.4)))
        #expect(e.count == 1)
        #expect(e.first?.fingers == 3)
        #expect(e.first?.direction == .down)
        #expect(abs((e.first?.distanceMM ?? 0) - 60) < 1e-6)
        #expect(abs((e.first?.speedMM ?? 0) - 150) < 1e-6)
        #expect(e.first?.phase == .recognized)
        #expect(e.first?.time == 0.4)
    }

    @Test func staggeredFingersCountTheMostDownAtOnce() {
        var s = Touches()
        let fingers = [
            Finger(id: 1, down: 0, up: 0.5, path: line(P(30, 20), P(30, 80), 0, 0.5)),
            Finger(id: 2, down: 0.03, up: 0.48, path: line(P(55, 22), P(55, 80), 0.03, 0.48)),
            Finger(id: 3, down: 0.1, up: 0.5, path: line(P(80, 28), P(80, 80), 0.1, 0.5)),
        ]
        let e = run(SwipeRecognizer(), s.frames(fingers))
        #expect(e.first?.fingers == 3)
        #expect(e.first?.direction == .down)
    }

    @Test func tooShortTooSlowOrBentFails() {
        var s = Touches()
        #expect(run(SwipeRecognizer(), s.frames(stroke(P(50, 60), P(65, 60)))).isEmpty)
        var s2 = Touches()
        #expect(run(SwipeRecognizer(), s2.frames(stroke(P(50, 60), P(150, 60), duration: 3))).isEmpty)
        // A half circle of radius 30 mm: straightness 2/π ≈ 0.64 < 0.75.
        var s3 = Touches()
        let arc = Finger(id: 1, down: 0, up: 0.4, path: { t in
            let a = Angle.pi * t / 0.4
            return P(100 - 30 * cosine(a), 60 - 30 * sine(a))
        })
        let r = SwipeRecognizer()
        var out: [GestureEvent] = []
        for f in s3.frames([arc]) {
            r.handle(f, events: &out)
            if f.time < 0.39 && r.state == .failed { break }
        }
        #expect(out.isEmpty)
        #expect(r.state == .failed)
    }

    @Test func minDistanceAsFractionOfTheScreen() {
        // 40 mm of a 200 mm wide screen is 0.2 < 0.3.
        var s = Touches()
        #expect(run(SwipeRecognizer { $0.minDistanceFraction = 0.3 }, s.frames(stroke(P(50, 60), P(90, 60)))).isEmpty)
        var s2 = Touches()
        #expect(run(SwipeRecognizer { $0.minDistanceFraction = 0.3 }, s2.frames(stroke(P(50, 60), P(120, 60)))).count == 1)
    }

    @Test func maxDurationFailsWhileStillDown() {
        let r = SwipeRecognizer { $0.maxDuration = 0.5 }
        var s = Touches()
        var out: [GestureEvent] = []
        let frames = s.frames([Finger(id: 1, down: 0, up: 2, path: still(P(50, 50)))])
        r.handle(frames[0], events: &out)
        #expect(r.deadline == 0.5)
        r.tick(now: 0.5, events: &out)
        #expect(r.state == .failed)
    }
}

@Suite struct EdgeSwipeRecognizerTests {
    func run1(_ a: Point, _ b: Point) -> (EdgeSwipeRecognizer, [GestureEvent]) {
        var s = Touches(jitterMM: 0.3)
        let r = EdgeSwipeRecognizer()
        return (r, run(r, s.frames([Finger(id: 1, down: 0, up: 0.3, path: line(a, b, 0, 0.3))])))
    }

    @Test func edgesAndCorners() {
        // Surface 200 × 120 mm, depth 6 mm.
        #expect(run1(P(2, 60), P(60, 62)).1.map(\.edge) == [.left])
        #expect(run1(P(198, 60), P(140, 60)).1.map(\.edge) == [.right])
        #expect(run1(P(100, 3), P(100, 60)).1.map(\.edge) == [.top])
        #expect(run1(P(100, 118), P(100, 60)).1.map(\.edge) == [.bottom])
        #expect(run1(P(3, 3), P(43, 43)).1.map(\.edge) == [.topLeft])
        #expect(run1(P(197, 117), P(157, 77)).1.map(\.edge) == [.bottomRight])
        // From a corner, straight along one edge: the edge it leaves.
        #expect(run1(P(3, 3), P(60, 3)).1.map(\.edge) == [.left])
    }

    @Test func recognizedWhileStillDownOnceFarEnough() {
        let (_, e) = run1(P(2, 60), P(62, 60))
        // 15 mm at 200 mm/s: 0.075 s, at the next frame.
        #expect((e.first?.time ?? 1) <= 0.08)
        #expect(e.first?.direction == .right)
    }

    @Test func notFromAnEdgeOrNotInwardFails() {
        let (r1, e1) = run1(P(20, 60), P(80, 60))
        #expect(e1.isEmpty && r1.state == .failed)
        let (r2, e2) = run1(P(2, 20), P(2, 90))  // along the left edge
        #expect(e2.isEmpty && r2.state == .failed)
        let (r3, e3) = run1(P(2, 60), P(8, 60))  // too short
        #expect(e3.isEmpty && r3.state == .failed)
    }
}
