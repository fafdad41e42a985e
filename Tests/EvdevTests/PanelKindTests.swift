import Evdev
import GestureKit
import Testing

/// Panels older drivers describe loosely: a single-touch panel (ABS_X/ABS_Y and BTN_TOUCH), a
/// touchscreen without INPUT_PROP_DIRECT, and recordings with events no kernel sends.
@Suite("panel kinds")
struct PanelKindTests {
    @Test("a single-touch panel without INPUT_PROP_DIRECT is a touchscreen, and every one-finger gesture works on it")
    func singleTouchPanel() throws {
        let path = Fixture.root + "/synthetic/Single-Touch_Panel.events"
        let r = try Recording.load(path: path)
        #expect(r.info.touchProtocol == .singleTouch)
        #expect(r.info.kind == .touchscreen && r.info.isDirect)
        let e = completedGestures(try allGestureEvents(path: path))
        #expect(e.map { "\($0.kind.rawValue).\($0.phase.rawValue)" } == ["circle.recognized", "tap.recognized", "swipe.recognized",
                               "long_press.began", "long_press.ended"])
        #expect(e.first { $0.kind == .swipe }?.direction == .right)
    }

    @Test("N-Trig sets no INPUT_PROP_DIRECT: still a touchscreen by input_id's rules, with its tap slop")
    func touchscreenWithoutDirectProperty() throws {
        let r = try Recording.load(path: Fixture.recording("touchscreens/N-Trig_MultiTouch.2-fingers-touch-release.events"))
        #expect(!r.info.capabilities.hasProperty(InputProp.DIRECT))
        #expect(r.info.kind == .touchscreen && r.info.isDirect)
        // The same device, told by udev it is a touchpad, follows touchpad rules.
        let pad = DeviceInfo(name: r.info.name, bus: r.info.bus, vendor: r.info.vendor, product: r.info.product,
                             version: r.info.version, capabilities: r.info.capabilities,
                             properties: ["ID_INPUT_TOUCHPAD": "1"])
        #expect(pad.kind == .touchpad && !pad.isDirect)
    }

    @Test("a two-finger tap that moves 2 mm is a tap on a touchscreen without INPUT_PROP_DIRECT")
    func twoFingerTapWithoutDirectProperty() throws {
        // The tiny touchscreen without INPUT_PROP_DIRECT and without slots: ABS_MT positions
        // and BTN_TOUCH, no BTN_TOOL_FINGER, protocol A, as N-Trig (100 × 50 mm).
        let bare = tinyDescription.split(separator: "\n", omittingEmptySubsequences: false).compactMap { line -> String? in
            if line.hasPrefix("P:") { return "P: 00 00 00 00 00 00 00 00" }
            if line.hasPrefix("B: 03") { return "B: 03 03 00 00 00 00 00 60 00" }
            if line.hasPrefix("A: 2f") || line.hasPrefix("A: 39") { return nil }
            return String(line)
        }.joined(separator: "\n")
        let text = bare + twoFingerTap(movedMM: 2)
        let path = temporaryFile("Bare.events", text)
        #expect(try Recording.load(path: path).info.isDirect)
        let e = completedGestures(try allGestureEvents(path: path))
        #expect(e.map { "\($0.kind.rawValue).\($0.phase.rawValue)" } == ["tap.recognized"])
        #expect(e.first?.fingers == 2)
    }

    /// Two contacts 30 mm apart for 80 ms, each drifting `movedMM` to the right; protocol A.
    func twoFingerTap(movedMM: Double) -> String {
        var lines: [String] = []
        for k in 0...8 {
            let t = String(format6: 1 + Double(k) * 0.01)
            let dx = Int((movedMM * 10 * Double(k) / 8).rounded())
            if k == 0 { lines.append("E: \(t) 0001 014a 1") }
            if k < 8 {
                for x in [400, 700] {
                    lines += ["E: \(t) 0003 0035 \(x + dx)", "E: \(t) 0003 0036 250", "E: \(t) 0000 0002 0"]
                }
            } else {
                lines += ["E: \(t) 0001 014a 0", "E: \(t) 0000 0002 0"]
            }
            lines.append("E: \(t) 0000 0000 0")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test("an event code beyond its type's maximum is refused with file and line, before libmtdev sees it")
    func outOfRangeCodes() throws {
        let desc = try TextFile.read(Fixture.recording("touchscreens/N-Trig_MultiTouch.desc"))
        let path = temporaryFile("Bad.events", desc + "E: 1.000000 0003 0035 100\nE: 1.000000 0003 00ff 1\nE: 1.000000 0000 0000 0\n")
        let line = desc.split(separator: "\n", omittingEmptySubsequences: false).count + 1
        #expect(throws: RecordingError(file: path, line: line,
                                       message: "event code 0xff is beyond the largest of type 0x3 (0x3f)")) {
            try Recording.load(path: path)
        }
        let typePath = temporaryFile("BadType.events", desc + "E: 1.000000 0019 0000 1\n")
        #expect(throws: RecordingError(file: typePath, line: line - 1, message: "event type 0x19 is not a kernel event type")) {
            try Recording.load(path: typePath)
        }
    }
}

extension String {
    /// "1.000000": seconds with six decimals, as evemu writes them.
    init(format6 t: Double) {
        let us = Int((t * 1_000_000).rounded())
        let frac = String(us % 1_000_000)
        self = "\(us / 1_000_000)." + String(repeating: "0", count: 6 - frac.count) + frac
    }
}
