import CLibevdev
import Evdev
import GestureKit
import Glibc
import Testing

/// What the virtual keyboard and pointer write, read back from a pipe (FileFrameSink): the
/// same frames a uinput device gets (the VM suite checks what libinput makes of them).
@Suite("keys and clicks")
struct OutputActionTests {
    /// Events written to a pipe by `write`, as (type, code, value).
    func written(_ write: (FrameSink) throws -> Void) throws -> [[Int]] {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        try write(FileFrameSink(fd: fds[1]))
        var events = [input_event](repeating: input_event(), count: 256)
        let n = events.withUnsafeMutableBytes { read(fds[0], $0.baseAddress, $0.count) }
        return events.prefix(max(0, n) / MemoryLayout<input_event>.stride).map { [Int($0.type), Int($0.code), Int($0.value)] }
    }

    @Test("key names: as in input-event-codes.h, any case, with or without KEY_, and the four modifier words")
    func names() throws {
        #expect(try KeyChord(parsing: "ctrl+r").codes == [29, 19])
        #expect(try KeyChord(parsing: " Ctrl + Shift + KEY_t ").codes == [29, 42, 20])
        #expect(try KeyChord(parsing: "alt+F4").codes == [56, 62])
        #expect(try KeyChord(parsing: "super").codes == [125])
        #expect(try KeyChord(parsing: "leftctrl+volumeup").codes == [29, 115])
        #expect(try KeyChord(parsing: "enter").codes == [28])
    }

    @Test("bad chords are refused with what is wrong", arguments: [
        ("", "empty chord"), ("ctrl+", "empty key name at position 2"), ("ctrl++r", "empty key name"),
        ("ctrl+ctrl", "twice"), ("btn_left", "a button, not a key"), ("ctrl+nosuchkey", "unknown key \"nosuchkey\""),
        ("a+b+c+d+e+f+g+h+i", "at most 8"), ("abs_x", "unknown key"),
    ])
    func badChords(text: String, message: String) {
        #expect {
            _ = try KeyChord(parsing: text)
        } throws: { ($0 as? KeyChordError)?.description.contains(message) == true }
    }

    @Test("a chord is pressed in order and released in reverse, each key event its own frame")
    func typing() throws {
        let chords = [try KeyChord(parsing: "ctrl+r"), try KeyChord(parsing: "f5")]
        let events = try written { try KeyChord.type(chords, on: $0) }
        #expect(events == [
            [1, 29, 1], [0, 0, 0], [1, 19, 1], [0, 0, 0], [1, 19, 0], [0, 0, 0], [1, 29, 0], [0, 0, 0],
            [1, 63, 1], [0, 0, 0], [1, 63, 0], [0, 0, 0],
        ])
    }

    @Test("the virtual keyboard offers every key and no button")
    func keyboardSpec() {
        let keys = Set(VirtualKeyboard.spec.keys)
        #expect(keys.isSuperset(of: [1, 28, 29, 19, 125, 0x160]))  // ESC, ENTER, LEFTCTRL, R, LEFTMETA, OK
        #expect(keys.isDisjoint(with: [0, 0x100, 0x110, 0x111, 0x14a, 0x220]))  // BTN_0, LEFT, RIGHT, TOUCH, DPAD_UP
        #expect(VirtualKeyboard.spec.axes.isEmpty)
    }

    @Test("a click moves to the point (always a motion, even to the same value) and presses and releases there")
    func click() throws {
        let events = try written { try VirtualPointer.click(.right, at: Point(x: 0.5, y: 0.25), on: $0) }
        #expect(events == [
            [3, 0, 16385], [3, 0, 16384], [3, 1, 8193], [3, 1, 8192], [0, 0, 0],
            [1, 0x111, 1], [0, 0, 0], [1, 0x111, 0], [0, 0, 0],
        ])
        #expect(VirtualPointer.spec.axes[ABS.X] == AxisInfo(minimum: 0, maximum: 32767))
        #expect(Set(VirtualPointer.spec.keys) == [0x110, 0x111, 0x112])
        #expect(VirtualPointer.spec.properties.isEmpty)
    }

    @Test("a click's announcement is the click's motion frame alone")
    func announcement() throws {
        let events = try written { try VirtualPointer.move(to: Point(x: 0.5, y: 0.25), on: $0) }
        #expect(events == [[3, 0, 16385], [3, 0, 16384], [3, 1, 8193], [3, 1, 8192], [0, 0, 0]])
    }

    @Test("normalized coordinates map onto the axis as libinput maps it back, clamped", arguments: [
        (0.0, 0), (0.5, 16384), (0.999, 32735), (1.0, 32767), (-0.2, 0), (1.7, 32767), (Double.nan, 0),
    ] as [(Double, Int32)])
    func axis(normalized: Double, value: Int32) {
        #expect(VirtualPointer.axisValue(normalized) == value)
    }
}
