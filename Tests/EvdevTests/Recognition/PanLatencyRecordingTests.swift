import Evdev
import GestureKit
import Testing

/// Real one-finger drags through the pipeline with the default arena: the pan begins within
/// 100 ms of the finger passing the pan's slop (4 mm), although swipe and the shapes are still
/// undecided (pan yields to them, docs/arbitration.md rule 5).
@Suite struct PanLatencyRecordingTests {
    @Test(arguments: [
        "tablets/Wacom_ISDv4_E6_Finger.single-center-scroll.events",
        // (Bamboo's "center scroll" starts 2.5 mm from the top edge: an edge swipe, not a pan.)
        "tablets/Wacom_Intuos5_touch_M_Finger_single-center-scroll.events",
        "touchscreens/N-Trig_MultiTouch.1-finger-drag-NW-SE.events",
        "touchscreens/Atmel_maXTouch_Touchscreen.1-finger-drag-up-down.events",
    ])
    func panBeginsWithin100msOfTheSlop(file: String) throws {
        let recording = try Recording.load(path: Fixture.recording(file))
        let pipeline = DevicePipeline(info: recording.info, arena: RecognizerCatalog.defaultArena())
        let slopMM = 4.0  // pan's default slop_mm
        var frameTime = 0.0
        var start: Point?
        var passed: Double?
        var began: Double?
        for e in recording.events {
            pipeline.feed(e, onFrame: { f in
                frameTime = f.time
                guard f.contacts.count == 1, let c = f.contacts.first else { return }
                if start == nil { start = c.mm }
                if passed == nil, let s = start, (c.mm - s).length >= slopMM { passed = f.time }
            }, onGesture: { g in
                if g.kind == .pan && g.phase == .began && began == nil { began = frameTime }
            })
        }
        let p = try #require(passed, "the finger never moved \(slopMM) mm")
        let b = try #require(began, "no pan began")
        #expect(b - p <= 0.1, "pan began \(b - p) s after the finger passed its slop")
    }
}
