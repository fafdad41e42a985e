import Evdev
import GestureKit
import Testing

/// Plays a recording through the real pipeline (parser → tracker → default arena) and returns
/// the events of the gestures that completed (`completedGestures`: a provisional pan that gave way
/// is left out), with timers fired at their deadlines as the daemon would.
func gestures(of relative: String) throws -> [GestureEvent] {
    completedGestures(try allGestureEvents(of: relative))
}

/// As `gestures(of:)`, every event: provisional gestures that were cancelled included.
func allGestureEvents(of relative: String) throws -> [GestureEvent] {
    try allGestureEvents(path: Fixture.recording(relative))
}

func allGestureEvents(path: String) throws -> [GestureEvent] {
    let r = try Recording.load(path: path)
    let pipeline = DevicePipeline(info: r.info, arena: RecognizerCatalog.defaultArena())
    var out: [GestureEvent] = []
    for e in r.events {
        pipeline.fireDeadlines(until: e.time) { out.append($0) }
        pipeline.feed(e) { out.append($0) }
    }
    pipeline.fireDeadlines(until: .infinity) { out.append($0) }
    return out
}

/// Expected values were read from the recordings (tracking ids, ABS_MT_POSITION_X/Y over time),
/// not from the recognizers' output; see each test.
@Suite("swipes in recordings")
struct SwipeRecordingTests {
    @Test("Wacom ISDv4 single top swipe: one finger moving right along the top")
    func wacomSingleTopSwipe() throws {
        // One contact, x 120 → 2675 of 0…2776, y 114 → 106 of 0…1569, 1.24 s.
        let e = try gestures(of: "tablets/Wacom_ISDv4_E6_Finger.single-top-swipe.events")
        #expect(e.count == 1)
        let g = try #require(e.first)
        #expect(g.kind == .swipe || (g.kind == .edgeSwipe && g.edge == .left))
        #expect(g.fingers == 1)
        #expect(g.direction == .right)
    }

    @Test("Wacom ISDv4 double top swipe: two fingers moving right")
    func wacomDoubleTopSwipe() throws {
        // Two contacts (slots 0 and 1, 36 ms apart), x 116 → 2611 and 118 → 2619, 1.9 s.
        let e = try gestures(of: "tablets/Wacom_ISDv4_E6_Finger.double-top-swipe.events")
        #expect(e.count == 1)
        let g = try #require(e.first)
        #expect(g.kind == .swipe || (g.kind == .edgeSwipe && g.edge == .left))
        #expect(g.fingers == 2)
        #expect(g.direction == .right)
    }

    @Test("eGalax 0eef:7337 through hid-multitouch (recorded in the VM): three fingers in a row, one contact per frame, swipe right")
    func egalaxOneContactPerReportSwipe() throws {
        // Three contacts landing 41 and 19 ms apart, moving right together for 0.456 s; the panel
        // sends one contact per report without a contact count, so no frame moves two fingers.
        let path = Fixture.root + "/hid-touchscreens/recorded/Egalax_capacitive_0eef_7337.swipe-3-right.events"
        let r = try Recording.load(path: path)
        #expect(r.info.touchProtocol == .multitouchB && r.info.kind == .touchscreen)
        var slotsInFrame = 0, mostSlotsInFrame = 0, frames = 0
        for e in r.events {
            if e.type == EV.ABS && e.code == ABS.MT_SLOT { slotsInFrame += 1 }
            if e.type == EV.SYN && e.code == SYN.REPORT {
                mostSlotsInFrame = max(mostSlotsInFrame, slotsInFrame)
                slotsInFrame = 0
                frames += 1
            }
        }
        #expect(mostSlotsInFrame == 1 && frames == 78)
        let all = try allGestureEvents(path: path)
        let e = completedGestures(all)
        #expect(e.map(\.kind) == [.swipe])
        #expect(e.first?.fingers == 3)
        #expect(e.first?.direction == .right)
        #expect(!all.contains { $0.kind == .pinch || $0.kind == .rotate })
    }

    @Test("Atmel 4-finger drag down")
    func atmelFourFingerDragDown() throws {
        // Four contacts landing within 111 ms; each y grows by 139…180 of 0…479 in ~0.5 s.
        let e = try gestures(of: "touchscreens/Atmel_maXTouch_Touchscreen.4-finger-drag-down.events")
        #expect(e.map(\.kind) == [.swipe])
        #expect(e.first?.fingers == 4)
        #expect(e.first?.direction == .down)
    }

    @Test("EP0430M09 4-finger drag: the fingers move towards y = 0, which is up on screen")
    func ep0430FourFingerDrag() throws {
        // Four contacts, y 520 → 349, 610 → 395, 603 → 352, 549 → 270 of 0…767, 1.17 s. The file
        // name says "down" (the content's direction or the panel's mounting); with no rotation
        // configured the fingers move up the screen.
        let e = try gestures(of: "touchscreens/EP0430M09.4-finger-drag-down.events")
        #expect(e.map(\.kind) == [.swipe])
        #expect(e.first?.fingers == 4)
        #expect(e.first?.direction == .up)
    }

    @Test("EP0430M09 2-finger scroll: two fingers moving up the screen")
    func ep0430TwoFingerScroll() throws {
        // Two contacts, y 547 → 216 and 582 → 306 of 0…767, 0.75 s ("scroll down": content down).
        let e = try gestures(of: "touchscreens/EP0430M09.2-finger-scroll-down.events")
        #expect(e.map(\.kind) == [.swipe])
        #expect(e.first?.fingers == 2)
        #expect(e.first?.direction == .up)
    }
}
