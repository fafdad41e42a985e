import Evdev
import GestureKit
import Testing

/// Multi-finger taps through the real tracker and the default arena: real recordings whose
/// fingers lift in different frames, and synthetic taps with staggered landings and lifts whose
/// last finger lingers 30 ms and drifts 2 mm. The tap's movement is measured per contact
/// (ContactGroup.maxDisplacementMM), so the centroid jumping when a finger lifts is no movement.
@Suite struct MultiFingerTapTests {
    func gestures(_ recording: Recording, arena: GestureArena = RecognizerCatalog.defaultArena()) -> [GestureEvent] {
        let pipeline = DevicePipeline(info: recording.info, arena: arena)
        var out: [GestureEvent] = []
        for e in recording.events {
            pipeline.fireDeadlines(until: e.time) { out.append($0) }
            pipeline.feed(e) { out.append($0) }
        }
        pipeline.fireDeadlines(until: .infinity) { out.append($0) }
        return out
    }

    /// Two-finger taps recorded on Wacom tablets and an ELAN touchscreen; in all but the ISDv4
    /// one the fingers lift 4–20 ms apart.
    @Test(arguments: [
        "tablets/Wacom_Bamboo_16FG_4x5_Finger_double-tap-center.events",
        "tablets/Wacom_Bamboo_16FG_4x5_Finger_double-tap.events",
        "tablets/Wacom_Intuos5_touch_M_Finger_double-tap-center.events",
        "tablets/Wacom_Intuos5_touch_M_Finger_double-tap.events",
        "tablets/Wacom_ISDv4_E6_Finger.2fg-tap.events",
        "libinput/ELAN_Touchscreen.two-finger-tap.yml",
    ])
    func realTwoFingerTaps(file: String) throws {
        let e = gestures(try Recording.load(path: Fixture.recording(file)))
        #expect(e.map(\.kind) == [.tap], "\(e.map(\.kind))")
        #expect(e.first?.fingers == 2)
        #expect(e.first?.tapCount == 1)
    }

    /// `n` fingers 15 mm apart landing 10 ms apart, held 60 ms; all but one lift together (or
    /// one by one), the last lingers 30 ms more drifting 2 mm, then lifts. 10 units/mm.
    func staggeredTap(fingers n: Int, oneByOne: Bool, lingering: Int) -> [InputEvent] {
        var s = EventScript()
        for i in 0..<n { s.slot(Int32(i), id: Int32(10 + i), x: Int32(200 + 150 * i), y: 250); s.syn() }
        for _ in 0..<6 { s.syn() }
        for i in 0..<n where i != lingering {
            s.lift(Int32(i))
            if oneByOne { s.syn() }
        }
        if !oneByOne { s.syn() }
        for k in 1...3 { s.slot(Int32(lingering), x: Int32(200 + 150 * lingering + 7 * k)); s.syn() }
        s.lift(Int32(lingering))
        s.syn()
        return s.take()
    }

    @Test(arguments: [2, 3, 4, 5])
    func staggeredLiftsWithDriftAreTapsOfEveryFinger(fingers: Int) {
        for oneByOne in [false, true] {
            for lingering in [0, fingers - 1] {
                let events = staggeredTap(fingers: fingers, oneByOne: oneByOne, lingering: lingering)
                let recording = Recording(path: "synthetic", info: syntheticTouchscreen(), events: events)
                for arena in [RecognizerCatalog.defaultArena(), GestureArena(recognizers: [TapRecognizer()])] {
                    let e = gestures(recording, arena: arena)
                    #expect(e.map(\.kind) == [.tap], "\(fingers) fingers, one by one \(oneByOne), lingering \(lingering)")
                    #expect(e.first?.fingers == fingers)
                }
            }
        }
    }
}
