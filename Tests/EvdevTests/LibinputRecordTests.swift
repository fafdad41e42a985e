import Evdev
import GestureKit
import Testing

@Suite("libinput record YAML")
struct LibinputRecordTests {
    @Test("description, udev properties and events of the ELAN fixture")
    func elan() throws {
        let r = try Recording.load(path: Fixture.recording("libinput/ELAN_Touchscreen.two-finger-tap.yml"))
        #expect(r.info.name == "ELAN Touchscreen")
        #expect(r.info.id == "ELAN_Touchscreen.two-finger-tap")
        #expect(r.info.bus == 3 && r.info.vendor == 1267 && r.info.product == 4316 && r.info.version == 272)
        #expect(r.info.devnode == "/dev/input/event5")
        #expect(r.info.properties["ID_INPUT_TOUCHSCREEN"] == "1")
        #expect(r.info.properties["LIBINPUT_CALIBRATION_MATRIX"] == "1 0 0 0 1 0")
        #expect(r.info.kind == .touchscreen && r.info.isDirect && r.info.touchProtocol == .multitouchB)
        #expect(r.info.slotCount == 10)
        // 3264 / 12 = 272 mm, 1848 / 12 = 154 mm.
        #expect(r.info.sizeMM == SizeMM(width: 272, height: 154) && !r.info.sizeIsFallback)
        // 12 + 3 + 5 evdev events; the libinput: entries are skipped.
        #expect(r.events.count == 20)
        #expect(r.events[1] == InputEvent(time: 0, type: 3, code: 57, value: 14))
        #expect(r.events[14].time == 0.012)
        #expect(r.events[15] == InputEvent(time: 0.084, type: 3, code: 57, value: -1))
        let f = frames(of: r)
        #expect(f.count == 3)
        #expect(f[0].contacts.map(\.phase) == [.began, .began])
        #expect(f[1].contacts.map(\.phase) == [.moved, .stationary])
        #expect(f[2].contacts.map(\.phase) == [.ended, .ended])
        // Slot 1 at (1800, 612) → 150 mm, 51 mm.
        #expect(f[0].contacts[1].mm == Point(x: 150, y: 51))
    }

    @Test("malformed libinput recordings name the line", arguments: [
        ("version: 2\ndevices:\n", 0, "unsupported libinput record version 2"),
        ("version: 1\ndevices:\n- node: /dev/input/event1\n  evdev:\n    id: [3, x]\n", 5, "\"x\" is not an integer"),
        ("version: 1\ndevices:\n- node: /dev/input/event1\n  evdev:\n    name: \"x\"\n    id: [1, 2, 3, 4]\n  events:\n  - evdev:\n    - [0, 0, 3, 57]\n", 9,
         "event needs [sec, usec, type, code, value]"),
        ("version: 1\ndevices:\n- node: /dev/input/event1\n  evdev:\n    name: \"x\"\n    absinfo:\n      53: [10, 0, 0, 0, 0]\n", 7, "bad range"),
    ])
    func malformed(_ text: String, _ line: Int, _ message: String) {
        let path = temporaryFile("bad.yml", text)
        do {
            _ = try Recording.load(path: path)
            Issue.record("expected an error")
        } catch {
            #expect(error.line == line, "\(error)")
            #expect(error.message.contains(message), "\(error)")
        }
    }
}
