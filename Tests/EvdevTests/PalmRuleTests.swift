import Evdev
import GestureKit
import Testing

/// Palms by contact size (`palm_mm`, PalmRule): synthetic streams, then the real touchscreens in
/// the fixtures that report a contact size (N-Trig: ABS_MT_TOUCH_MAJOR in position units, no
/// resolution). The Wacom Bamboo and Intuos5 touch tablets report one too, but on 0…255 with no
/// resolution, which is not in position units: read as libinput reads it (the x axis's units), a
/// finger there is under 5 mm, so the rule cannot take their palms (docs/conditioning.md).
@Suite("palm rule")
struct PalmRuleTests {
    /// The synthetic touchscreen (1000 × 500 units, 10 units/mm) with a touch size axis.
    static func screen(resolution: Int32 = 10) -> DeviceInfo {
        var info = syntheticTouchscreen()
        info.capabilities.axes[ABS.MT_TOUCH_MAJOR] = AxisInfo(minimum: 0, maximum: 1000, resolution: resolution)
        return DeviceInfo(name: info.name, id: info.id, bus: info.bus, vendor: info.vendor, product: info.product,
                          version: info.version, capabilities: info.capabilities)
    }

    @Test("the threshold in millimetres becomes axis units: the axis's resolution, else the x axis's")
    func units() throws {
        let info = Self.screen()
        // #require outside #expect: Swift 6.0's Testing cannot expand one inside the other.
        let rule = try #require(PalmRule(mm: 25, info: info, sizeMM: info.sizeMM))
        #expect(rule.units == 250)
        let bare = Self.screen(resolution: 0)
        let bareRule = try #require(PalmRule(mm: 25, info: bare, sizeMM: SizeMM(width: 200, height: 100)))
        #expect(bareRule.units == 125)
        #expect(PalmRule(mm: 25, info: syntheticTouchscreen(), sizeMM: SizeMM(width: 100, height: 50)) == nil)
    }

    @Test("a contact large from its start is never reported; one that grows is cancelled; a finger passes")
    func palms() {
        let info = Self.screen()
        var t = ContactTracker(info: info, palm: PalmRule(mm: 25, info: info, sizeMM: info.sizeMM))
        var seen: [SeenFrame] = []
        var s = EventScript()
        s.slot(0, id: 1, x: 100, y: 100)
        s.abs(ABS.MT_TOUCH_MAJOR, 300)  // 30 mm: a palm from the start
        s.slot(1, id: 2, x: 500, y: 100)
        s.abs(ABS.MT_TOUCH_MAJOR, 80)  // 8 mm: a finger
        s.syn()
        s.slot(1, x: 510)
        s.abs(ABS.MT_TOUCH_MAJOR, 260)  // the finger's hand lands: 26 mm
        s.syn()
        s.lift(0)
        s.lift(1)
        s.syn()
        s.slot(0, id: 3, x: 300, y: 300)
        s.abs(ABS.MT_TOUCH_MAJOR, 249)
        s.syn()
        s.lift(0)
        s.syn()
        for e in s.take() { t.feed(e) { seen.append(copy($0)) } }
        #expect(seen.map { $0.contacts.map { "\($0.id) \($0.phase)" } } == [["2 began"], ["2 cancelled"], ["3 began"], ["3 ended"]])
        #expect(t.palmsRejected == 2)  // the status's and the broker's count: each palm once
    }

    /// Real panels: their fingers are below a palm's size, and a rule set below a finger's size
    /// takes every contact (the axis is read and converted on real data, not only synthetic).
    @Test("real touchscreens that report contact size: fingers pass at 25 mm, a rule below their size takes them", arguments: [
        ("touchscreens/N-Trig_MultiTouch.2-fingers-touch-release.events", 5.0),
        ("touchscreens/N-Trig_MultiTouch.1-finger-drag-NW-SE.events", 5.0),
    ])
    func realPanels(_ path: String, _ small: Double) throws {
        let r = try Recording.load(path: Fixture.recording(path))
        func reported(_ mm: Double) -> Int {
            var t = ContactTracker(info: r.info, palm: PalmRule(mm: mm, info: r.info, sizeMM: r.info.sizeMM))
            var began = 0
            for e in r.events { t.feed(e) { f in began += f.contacts.filter { $0.phase == .began }.count } }
            return began
        }
        #expect(PalmRule(mm: 25, info: r.info, sizeMM: r.info.sizeMM) != nil)
        let all = frames(of: r).flatMap(\.contacts).filter { $0.phase == .began }.count
        #expect(all > 0 && reported(25) == all)
        #expect(reported(small) < all)
    }
}
