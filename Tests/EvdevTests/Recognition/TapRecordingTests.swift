import Evdev
import GestureKit
import Testing

@Suite("taps in recordings")
struct TapRecordingTests {
    @Test("Wacom ISDv4 single tap in the centre")
    func singleTap() throws {
        // One contact, 24 ms, no movement.
        let e = try gestures(of: "tablets/Wacom_ISDv4_E6_Finger.single-tap-center.events")
        #expect(e.map(\.kind) == [.tap])
        #expect(e.first?.tapCount == 1)
        #expect(e.first?.fingers == 1)
    }

    @Test("Wacom ISDv4 double tap in the centre")
    func doubleTap() throws {
        // Two contacts on slot 0: 0–32 ms and 172–232 ms, 9 units apart, no movement.
        let e = try gestures(of: "tablets/Wacom_ISDv4_E6_Finger.double-tap-center.events")
        #expect(e.map(\.kind) == [.tap])
        #expect(e.first?.tapCount == 2)
        #expect(e.first?.fingers == 1)
    }

    @Test("Wacom ISDv4 two-finger tap")
    func twoFingerTap() throws {
        // Two contacts landing and lifting together, 32 ms, no movement.
        let e = try gestures(of: "tablets/Wacom_ISDv4_E6_Finger.2fg-tap.events")
        #expect(e.map(\.kind) == [.tap])
        #expect(e.first?.tapCount == 1)
        #expect(e.first?.fingers == 2)
    }

    @Test("Atmel nine fast taps: four double taps and a single")
    func fastTaps() throws {
        // Nine one-finger touches of 82–110 ms, each landing 125–152 ms after the previous
        // lift, within 8 mm of it, none moving. Chains of at most two (max_count 2) within
        // 0.3 s: 1+2, 3+4, 5+6, 7+8 are double taps; the ninth is alone.
        let e = try gestures(of: "touchscreens/Atmel_maXTouch_Touchscreen.1-finger-fast-taps.events")
        #expect(e.map(\.kind) == Array(repeating: .tap, count: 5))
        #expect(e.map { $0.tapCount ?? 0 } == [2, 2, 2, 2, 1])
        #expect(e.allSatisfy { $0.fingers == 1 })
    }
}
