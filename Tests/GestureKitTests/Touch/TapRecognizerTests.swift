import Testing
@testable import GestureKit

@Suite struct TapRecognizerTests {
    let here = P(100, 60)

    func tap(_ id: Int32, at p: Point, _ t0: Double, _ t1: Double) -> Finger { Finger(id: id, down: t0, up: t1, path: still(p)) }

    @Test func singleTapWithMaxCountOneFiresAtLift() {
        var s = Touches()
        let r = TapRecognizer { $0.maxCount = 1 }
        let e = run(r, s.frames([tap(1, at: here, 0, 0.08)]))
        #expect(summary(e) == ["tap.recognized"])
        #expect(e.first?.time == 0.08)
        #expect(e.first?.tapCount == 1)
        #expect(e.first?.fingers == 1)
        #expect(r.state == .recognized)
    }

    @Test func singleTapWaitsForTheDoubleTapWindow() {
        var s = Touches()
        let r = TapRecognizer()
        let e = run(r, s.frames([tap(1, at: here, 0, 0.08)]))
        #expect(e.count == 1)
        #expect(e.first?.tapCount == 1)
        // Lift at 0.08 + the 0.3 s interval.
        #expect(abs((e.first?.time ?? 0) - 0.38) < 1e-9)
    }

    @Test func doubleTapFiresAtSecondLift() {
        var s = Touches()
        let r = TapRecognizer()
        let f = s.frames([tap(1, at: here, 0, 0.08)]) + s.frames([tap(2, at: P(103, 62), 0.25, 0.33)])
        let e = run(r, f)
        #expect(e.count == 1)
        #expect(e.first?.tapCount == 2)
        #expect(e.first?.time == 0.33)
    }

    @Test func tripleTapWithMaxCountThree() {
        var s = Touches()
        let r = TapRecognizer { $0.maxCount = 3 }
        let f = s.frames([tap(1, at: here, 0, 0.05)]) + s.frames([tap(2, at: here, 0.2, 0.25)])
            + s.frames([tap(3, at: here, 0.4, 0.45)])
        let e = run(r, f)
        #expect(e.map { $0.tapCount } == [3])
    }

    @Test func twoFingerTapReportsFingers() {
        var s = Touches(jitterMM: 0.4)
        let r = TapRecognizer { $0.maxCount = 1 }
        let e = run(r, s.frames([tap(1, at: here, 0, 0.1), tap(2, at: P(130, 62), 0.02, 0.09)]))
        #expect(e.count == 1)
        #expect(e.first?.fingers == 2)
    }

    @Test func movementBeyondSlopIsNoTap() {
        var s = Touches()
        let r = TapRecognizer { $0.maxCount = 1 }
        let e = run(r, s.frames([Finger(id: 1, down: 0, up: 0.1, path: line(here, P(105, 60), 0, 0.1))]))
        #expect(e.isEmpty)
        #expect(r.state == .failed)
    }

    @Test func touchpadSlopIsSmaller() {
        // 2 mm of movement: a tap on a touchscreen (3 mm), not on a touchpad (1.3 mm).
        let path = line(here, P(102, 60), 0, 0.1)
        var screen = Touches()
        let e1 = run(TapRecognizer { $0.maxCount = 1 }, screen.frames([Finger(id: 1, down: 0, up: 0.1, path: path)]))
        var pad = Touches(surface: Surface(widthMM: 100, heightMM: 70, isDirect: false))
        let e2 = run(TapRecognizer { $0.maxCount = 1 }, pad.frames([Finger(id: 1, down: 0, up: 0.1, path: path)]))
        #expect(e1.count == 1)
        #expect(e2.isEmpty)
    }

    @Test func heldTooLongIsNoTap() {
        var s = Touches()
        let r = TapRecognizer()
        #expect(run(r, s.frames([tap(1, at: here, 0, 0.45)])).isEmpty)
        #expect(r.state == .failed)
    }

    @Test func farSecondTapEndsTheChain() {
        var s = Touches()
        let r = TapRecognizer()
        var e = run(r, s.frames([tap(1, at: here, 0, 0.08)]) + s.frames([tap(2, at: P(160, 60), 0.2, 0.28)]))
        // The first tap is reported when the far touch lands; the second waits for its window.
        #expect(e.map { $0.tapCount } == [1, 1])
        #expect(e.first?.time == 0.2)
        e.removeAll()
    }

    @Test func otherFingerCountEndsTheChain() {
        var s = Touches()
        let r = TapRecognizer()
        let f = s.frames([tap(1, at: here, 0, 0.08)])
            + s.frames([tap(2, at: here, 0.2, 0.28), tap(3, at: P(120, 60), 0.2, 0.28)])
        let e = run(r, f)
        #expect(e.map { $0.fingers } == [1, 2])
        #expect(e.map { $0.tapCount } == [1, 1])
    }

    @Test func resetKeepsAPendingChainButNotAFinishedOne() {
        var s = Touches()
        let r = TapRecognizer()
        var out: [GestureEvent] = []
        for f in s.frames([tap(1, at: here, 0, 0.08)]) { r.handle(f, events: &out) }
        r.reset()
        #expect(r.deadline != nil)
        for f in s.frames([tap(2, at: here, 0.2, 0.26)]) { r.handle(f, events: &out) }
        #expect(out.map { $0.tapCount } == [2])
        r.reset()
        #expect(r.deadline == nil)
        #expect(r.state == .possible)
    }
}
