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

    /// The single-touch panel's description (the synthetic fixture's header) and `strokes`
    /// drawn on it at 100 Hz, one second apart: BTN_TOUCH 1 with the first place, ABS_X/ABS_Y
    /// on each report, BTN_TOUCH 0 at lift. A stroke is (duration s, path(t) -> mm).
    func singleTouchRecording(_ name: String, _ strokes: [(Double, (Double) -> Point)]) throws -> String {
        let fixture = try TextFile.read(Fixture.root + "/synthetic/Single-Touch_Panel.events")
        var lines = fixture.split(separator: "\n", omittingEmptySubsequences: false).prefix { !$0.hasPrefix("E:") }.map(String.init)
        var start = 1.0
        for (duration, path) in strokes {
            let n = Int((duration * 100).rounded())
            for k in 0...n {
                let t = start + Double(k) / 100
                let p = path(Double(k) / 100)
                if k == 0 { lines.append("E: \(String(format6: t)) 0001 014a 1") }
                lines += ["E: \(String(format6: t)) 0003 0000 \(Int((p.x * 16).rounded()))",
                          "E: \(String(format6: t)) 0003 0001 \(Int((p.y * 24).rounded()))"]
                if k == n { lines.append("E: \(String(format6: t)) 0001 014a 0") }
                lines.append("E: \(String(format6: t)) 0000 0000 0")
            }
            start += duration + 1
        }
        return temporaryFile(name, lines.joined(separator: "\n") + "\n")
    }

    @Test("on a single-touch panel: checkmark, tickle, double tap, edge swipe and pan (the fixture has circle, tap, swipe, long press)")
    func singleTouchPanelEveryOneFingerGesture() throws {
        // On the 256 × 170.67 mm panel, about its centre (128, 85).
        func line(_ from: Point, _ to: Point, _ seconds: Double) -> (Double) -> Point {
            { t in from + (to - from) * min(1, t / seconds) }
        }
        let checkmark: (Double) -> Point = { t in  // down-right 20 mm in 0.2 s, up-right 55 mm in 0.35 s
            t < 0.2 ? Point(x: 103 + 70 * t, y: 80 + 70 * t) : Point(x: 117 + 30 * min(1, (t - 0.2) / 0.35), y: 94 - 46 * min(1, (t - 0.2) / 0.35))
        }
        let tickle: (Double) -> Point = { t in  // 20 mm legs, 0.15 s each, six of them
            let leg = Int(t / 0.15), u = t / 0.15 - Double(leg)
            return Point(x: 118 + 20 * (leg % 2 == 0 ? u : 1 - u), y: 85)
        }
        let cases: [(String, [(Double, (Double) -> Point)], [String])] = [
            ("checkmark", [(0.55, checkmark)], ["checkmark.recognized"]),
            ("tickle", [(0.9, tickle)], ["tickle.recognized"]),
            ("edge-swipe", [(0.3, line(Point(x: 1, y: 85), Point(x: 71, y: 85), 0.3))], ["edge_swipe.recognized"]),
            // Held 3 s: past the swipe's 2.5 s, so the drag is a pan, begun and ended.
            ("pan", [(3.0, line(Point(x: 90, y: 85), Point(x: 150, y: 85), 1.5))], ["pan.began", "pan.ended"]),
        ]
        for (name, strokes, expected) in cases {
            let e = completedGestures(try allGestureEvents(path: try singleTouchRecording("Single-\(name).events", strokes)))
            #expect(e.map { "\($0.kind.rawValue).\($0.phase.rawValue)" }.filter { !$0.hasSuffix(".changed") } == expected, "\(name)")
            if name == "edge-swipe" { #expect(e.first?.edge == .left) }
        }
        // Two taps 0.2 s apart in one place: one tap event counting two.
        let tap: (Double) -> Point = { _ in Point(x: 128, y: 85) }
        let path = try singleTouchRecording("Single-double-tap.events", [(0.08, tap)])
        var text = try TextFile.read(path)
        text += text.split(separator: "\n").filter { $0.hasPrefix("E:") }.map { line -> String in
            var f = line.split(separator: " ").map(String.init)
            f[1] = String(format6: Double(f[1])! + 0.2)
            return f.joined(separator: " ")
        }.joined(separator: "\n") + "\n"
        let doubleTap = completedGestures(try allGestureEvents(path: temporaryFile("Single-double-tap2.events", text)))
        #expect(doubleTap.map { "\($0.kind.rawValue).\($0.phase.rawValue)" } == ["tap.recognized"])
        #expect(doubleTap.first?.tapCount == 2)
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
