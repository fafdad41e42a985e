import Evdev
import GestureKit
import Testing

/// Real recordings through the contact tracker. Expected counts come from reading the raw
/// files with awk, independently of the tracker: per slot, a TRACKING_ID ≥ 0 that differs from
/// the slot's current id is a begin (and ends the previous one), -1 is an end; at each
/// SYN_REPORT count the slots holding an id (Tests/Fixtures/recordings/count.awk does this;
/// `awk -f count.awk FILE`). Millimetres are worked out by hand from the A: lines.
@Suite("contact tracker on recordings")
struct TrackerRecordingTests {
    func load(_ p: String) throws -> Recording { try Recording.load(path: Fixture.recording(p)) }

    @Test("Wacom ISDv4 E6: one tap, resolution 0 → 15.6-inch fallback")
    func wacomSingleTap() throws {
        let r = try load("tablets/Wacom_ISDv4_E6_Finger.single-tap-center.events")
        #expect(r.info.kind == .touchscreen)          // P: 02 = INPUT_PROP_DIRECT
        #expect(r.info.touchProtocol == .multitouchB)
        #expect(r.info.slotCount == 2)                // A: 2f 0 1
        #expect(r.info.sizeIsFallback)
        // Fallback: 396.24 mm diagonal over hypot(2776, 1569) = 3188.72 units → 0.1242630 mm/unit.
        let k = 0.12426301640646176
        #expect(close(r.info.sizeMM.width, 2776 * k) && close(r.info.sizeMM.height, 1569 * k))
        let f = frames(of: r)
        #expect(f.count == 2)
        #expect(f[0].contacts.count == 1 && f[1].contacts.count == 1)
        let down = f[0].contacts[0], up = f[1].contacts[0]
        #expect(down.phase == .began && up.phase == .ended && down.id == up.id && down.slot == 0)
        // E: lines: x 1269, y 710 → 157.690 mm, 88.227 mm; normalized 1269/2776, 710/1569.
        #expect(close(down.mm.x, 157.68976781979998, 1e-9) && close(down.mm.y, 88.22674164858785, 1e-9))
        #expect(close(down.position.x, 1269.0 / 2776) && close(down.position.y, 710.0 / 1569))
        #expect(f[0].time == 1330495931.101135 && f[1].time == 1330495931.125122)
    }

    @Test("Atmel maXTouch: four fingers, ids unique, begin/end paired")
    func atmelFourFingers() throws {
        let r = try load("touchscreens/Atmel_maXTouch_Touchscreen.4-finger-drag-down.events")
        let f = frames(of: r)
        let ledger = ContactLedger(f)
        #expect(f.count == 31)                        // awk: 31 SYN_REPORTs, each with a contact
        #expect(ledger.began.count == 4 && ledger.paired && ledger.maxDown == 4)
        #expect(Set(ledger.began.keys) == [1, 2, 3, 4])
        // First contact: slot 0, x 415, y 107; 799×479 units, 0.42534 mm/unit (15.6-inch fallback).
        let first = f[0].contacts[0]
        #expect(close(first.mm.x, 176.51681373640324, 1e-9) && close(first.mm.y, 45.51156402360276, 1e-9))
        // Second frame: slot 1 (x 133, y 245) and slot 2 begin; slot 0 continues.
        #expect(f[1].phases(.began).count == 2)
        #expect(f[1].contacts.first { $0.slot == 1 }.map { close($0.mm.x, 133 * 0.4253417198467548) } == true)
    }

    @Test("Wacom DTH2242: up to ten fingers at once, 66 contacts")
    func tenFingers() throws {
        let r = try load("tablets/Wacom_DTH2242_Finger.events")
        #expect(r.info.slotCount == 10)
        let f = frames(of: r)
        let ledger = ContactLedger(f)
        #expect(f.count == 2025)
        #expect(ledger.began.count == 66)
        #expect(ledger.paired)
        #expect(ledger.maxDown == 10)
        #expect(f.allSatisfy { fr in Set(fr.contacts.map(\.id)).count == fr.contacts.count })
    }

    @Test("N-Trig: protocol A through mtdev becomes two tracked contacts")
    func nTrigProtocolA() throws {
        let r = try load("touchscreens/N-Trig_MultiTouch.2-fingers-touch-release.events")
        #expect(r.info.touchProtocol == .multitouchA)
        #expect(r.info.kind == .touchscreen)          // BTN_TOUCH, no BTN_TOOL_FINGER
        let f = frames(of: r)
        // awk over SYN_MT_REPORTs per SYN_REPORT: 93 frames × 1 packet, 49 × 2, 76 × 1, 1 × 0.
        // Like the kernel, mtdev sends no SYN_REPORT when nothing changed: 4 frames repeat the
        // previous one exactly (frames 80, 159, 180, 200, all one packet; awk comparing each
        // frame's ABS_MT values with the previous frame's), leaving 92 × 1, 49 × 2, 73 × 1, 1 × 0.
        #expect(f.count == 215)
        #expect(f.map { $0.contacts.filter { $0.phase.isDown }.count }
            == Array(repeating: 1, count: 92) + Array(repeating: 2, count: 49) + Array(repeating: 1, count: 73) + [0])
        let ledger = ContactLedger(f)
        #expect(ledger.began.count == 2 && ledger.paired)
        // 9600×7200 units, resolution 0: 396.24 / 12000 = 0.03302 mm/unit; first packet 1588, 6097.
        #expect(close(r.info.sizeMM.width, 316.992) && close(r.info.sizeMM.height, 237.744))
        let first = try #require(f.first?.contacts.first)
        #expect(close(first.mm.x, 52.43576) && close(first.mm.y, 201.32294))
    }

    @Test("QUANTA optical (touch-hover recording): one contact for the whole hover-and-touch")
    func quantaHover() throws {
        let r = try load("touchscreens/QUANTA_OpticalTouchScreen.touch-hover.events")
        let f = frames(of: r)
        let ledger = ContactLedger(f)
        #expect(f.count == 112 && ledger.began.count == 1 && ledger.paired && ledger.maxDown == 1)
        #expect(close(f[0].contacts[0].position.x, 1041.0 / 1920) && close(f[0].contacts[0].position.y, 448.0 / 1080))
    }

    @Test("dell canvas: real resolution (55 and 98 units/mm)")
    func dellCanvas() throws {
        let r = try load("tablets/dell_canvas_touch.evemu")
        #expect(!r.info.sizeIsFallback)
        #expect(close(r.info.sizeMM.width, 32767.0 / 55) && close(r.info.sizeMM.height, 32767.0 / 98))
        let f = frames(of: r)
        let ledger = ContactLedger(f)
        #expect(f.count == 450 && ledger.began.count == 12 && ledger.paired && ledger.maxDown == 5)
        // First contact: x 8822, y 21515.
        #expect(close(f[0].contacts[0].mm.x, 8822.0 / 55) && close(f[0].contacts[0].mm.y, 21515.0 / 98))
    }

    @Test("ALPS touchpad without multitouch: single touch from BTN_TOUCH, 69×50 mm fallback")
    func alpsSingleTouch() throws {
        let r = try load("touchpads/AlpsPS2-ALPS-DualPoint-TouchPad-non-MT.tap.events")
        #expect(r.info.kind == .touchpad && r.info.touchProtocol == .singleTouch && r.info.slotCount == 1)
        #expect(r.info.sizeMM == SizeMM(width: 69, height: 50) && r.info.sizeIsFallback)
        let f = frames(of: r)
        // BTN_TOUCH 1 at 0.000000, 0 at 0.072585; 4 SYN_REPORTs.
        #expect(f.count == 4)
        #expect(f[0].contacts.map(\.phase) == [.began] && f[3].contacts.map(\.phase) == [.ended])
        // ABS_X 463 of 0…1023, ABS_Y 384 of 0…767.
        #expect(close(f[0].contacts[0].mm.x, 463.0 / 1023 * 69) && close(f[0].contacts[0].mm.y, 384.0 / 767 * 50))
    }

    @Test("touchpads and small tablets: counts match the raw files", arguments: [
        ("tablets/Wacom_Bamboo_16FG_4x5_Finger_double-tap.events", 5, 2, 2),
        ("tablets/Wacom_ISDv4_E6_Finger.2fg-tap.events", 2, 2, 2),
        ("touchscreens/Atmel_maXTouch_Touchscreen.2-fingers-touch-release.events", 16, 2, 2),
        ("touchpads/CyPS2_Cypress_Trackpad.two_finger_tap.events", 8, 2, 2),
        ("touchpads/SynPS2_Synaptics_TouchPad.hp8470p.two-finger-scroll-vertical.events", 114, 1, 1),
    ])
    func counts(_ path: String, _ frameCount: Int, _ contacts: Int, _ maxDown: Int) throws {
        let f = frames(of: try load(path))
        let ledger = ContactLedger(f)
        #expect(f.count == frameCount)
        #expect(ledger.began.count == contacts)
        #expect(ledger.maxDown == maxDown)
        #expect(ledger.paired)
    }

    @Test("touchpad kinds follow udev's rules")
    func kinds() throws {
        #expect(try load("tablets/Wacom_Bamboo_16FG_4x5_Finger_double-tap.events").info.kind == .touchpad)
        #expect(try load("touchpads/CyPS2_Cypress_Trackpad.two_finger_tap.events").info.kind == .touchpad)
        #expect(try load("touchpads/SynPS2_Synaptics_TouchPad.hp8470p.two-finger-scroll-vertical.events").info.kind == .touchpad)
    }
}
