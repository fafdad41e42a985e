import Evdev
import GestureKit
import Testing

/// Every shipped recording, through the tracker: whatever the device, contacts begin once,
/// end once, are never reported before they begin, ids are unique within a frame and
/// positions stay on the screen.
@Suite("every fixture recording")
struct RecordingSweepTests {
    static let files = [
        "tablets/Wacom_Bamboo_16FG_4x5_Finger_double-tap.events",
        "tablets/Wacom_DTH2242_Finger.events",
        "tablets/Wacom_ISDv4_E6_Finger.2fg-tap.events",
        "tablets/Wacom_ISDv4_E6_Finger.single-tap-center.events",
        "tablets/dell_canvas_touch.evemu",
        "touchpads/AlpsPS2-ALPS-DualPoint-TouchPad-non-MT.tap.events",
        "touchpads/CyPS2_Cypress_Trackpad.two_finger_tap.events",
        "touchpads/SynPS2_Synaptics_TouchPad.hp8470p.two-finger-scroll-vertical.events",
        "touchscreens/Atmel_maXTouch_Touchscreen.2-fingers-touch-release.events",
        "touchscreens/Atmel_maXTouch_Touchscreen.4-finger-drag-down.events",
        "touchscreens/N-Trig_MultiTouch.1-finger-drag-NW-SE.events",
        "touchscreens/N-Trig_MultiTouch.2-fingers-touch-release.events",
        "touchscreens/QUANTA_OpticalTouchScreen.touch-hover.events",
        "libinput/ELAN_Touchscreen.two-finger-tap.yml",
    ]

    @Test("contacts are well formed", arguments: files)
    func wellFormed(_ path: String) throws {
        let f = frames(of: try Recording.load(path: Fixture.recording(path)))
        #expect(!f.isEmpty)
        let ledger = ContactLedger(f)
        #expect(ledger.paired)
        for frame in f {
            #expect(Set(frame.contacts.map(\.id)).count == frame.contacts.count)
            for c in frame.contacts {
                #expect((0...1).contains(c.position.x) && (0...1).contains(c.position.y))
            }
        }
        #expect(zip(f, f.dropFirst()).allSatisfy { $0.time <= $1.time })
    }

    @Test("N-Trig drag NW→SE moves right and down on the screen, and left and up when rotated 180°")
    func dragDirection() throws {
        let r = try Recording.load(path: Fixture.recording("touchscreens/N-Trig_MultiTouch.1-finger-drag-NW-SE.events"))
        // Raw file (awk on codes 0035/0036): x 205 → 9369 of 9600, y 183 → 6967 of 7200.
        let f = frames(of: r)
        let first = try #require(f.first?.contacts.first), last = try #require(f.last?.contacts.first)
        #expect(last.phase == .ended)
        #expect(last.position.x > first.position.x + 0.3 && last.position.y > first.position.y + 0.3)
        let turned = frames(of: r, transform: CoordinateTransform(rotation: .clockwise180))
        let a = try #require(turned.first?.contacts.first), b = try #require(turned.last?.contacts.first)
        #expect(b.position.x < a.position.x - 0.3 && b.position.y < a.position.y - 0.3)
        #expect(close(a.position.x, 1 - first.position.x) && close(a.position.y, 1 - first.position.y))
    }

    @Test("positions beyond the declared axis range are clamped to the screen, millimetres are not")
    func outOfRange() {
        var t = ContactTracker(info: syntheticTouchscreen())
        var s = EventScript()
        s.slot(0, id: 1, x: 1500, y: -100)
        s.syn()
        var seen: [SeenFrame] = []
        for e in s.take() { t.feed(e) { seen.append(copy($0)) } }
        #expect(seen.first?.contacts.first?.position == Point(x: 1, y: 0))
        #expect(seen.first?.contacts.first?.mm == Point(x: 150, y: -10))
    }
}
