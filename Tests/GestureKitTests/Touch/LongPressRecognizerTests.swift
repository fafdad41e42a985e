import Testing
@testable import GestureKit

@Suite struct LongPressRecognizerTests {
    @Test func beganAtTheDeadlineEvenWithoutFrames() {
        let r = LongPressRecognizer()
        var s = Touches()
        s.dt = 0.3  // a resting finger sends few frames
        var out: [GestureEvent] = []
        let frames = s.frames([Finger(id: 1, down: 0, up: 0.9, path: still(P(50, 50)))])
        r.handle(frames[0], events: &out)
        #expect(r.deadline == 0.5)
        r.tick(now: 0.5, events: &out)
        #expect(summary(out) == ["long_press.began"])
        #expect(out[0].time == 0.5)
        #expect(out[0].duration == 0.5)
        for f in frames.dropFirst() { r.handle(f, events: &out) }
        #expect(summary(out).last == "long_press.ended")
        #expect(out.last?.time == 0.9)
    }

    @Test func movingAfterBeganCancelsTheHold() {
        // libinput's hold: a hold whose fingers start to move ends cancelled.
        var s = Touches(jitterMM: 0.3)
        let r = LongPressRecognizer()
        let e = run(r, s.frames([Finger(id: 1, down: 0, up: 1.0, path: line(P(50, 50), P(90, 50), 0.6, 0.9))]))
        #expect(summary(e) == ["long_press.began", "long_press.cancelled"])
        #expect(r.state == .cancelled)
        // Cancelled as soon as the finger is more than max_movement_mm (4) from where it landed.
        #expect((e.last?.translationMM?.x ?? 0) > 4)
        #expect((e.last?.translationMM?.x ?? 99) < 6)
    }

    @Test func dragAfterBeganReportsChangedWhenDragIsAllowed() {
        var s = Touches(jitterMM: 0.3)
        let e = run(LongPressRecognizer { $0.allowDrag = true }, s.frames([Finger(id: 1, down: 0, up: 1.0, path: line(P(50, 50), P(90, 50), 0.6, 0.9))]))
        #expect(e.first?.phase == .began)
        #expect(e.last?.phase == .ended)
        #expect(e.contains { $0.phase == .changed })
        #expect((e.last?.translationMM?.x ?? 0) > 35)
    }

    @Test func movementBeforeRecognitionFails() {
        var s = Touches()
        let r = LongPressRecognizer()
        let e = run(r, s.frames([Finger(id: 1, down: 0, up: 0.8, path: line(P(50, 50), P(60, 50), 0.1, 0.3))]))
        #expect(e.isEmpty)
        #expect(r.state == .failed)
    }

    @Test func liftBeforeMinDurationFails() {
        var s = Touches()
        let r = LongPressRecognizer()
        #expect(run(r, s.frames([Finger(id: 1, down: 0, up: 0.3, path: still(P(50, 50)))])).isEmpty)
        #expect(r.state == .failed)
    }

    @Test func twoFingerPressReportsFingers() {
        var s = Touches(jitterMM: 0.5)
        let e = run(LongPressRecognizer(), s.frames([
            Finger(id: 1, down: 0, up: 0.7, path: still(P(50, 50))),
            Finger(id: 2, down: 0.03, up: 0.7, path: still(P(80, 50))),
        ]))
        #expect(e.first?.fingers == 2)
        #expect(e.first?.phase == .began)
    }
}
