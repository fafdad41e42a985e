import Evdev
import GestureKit
import Glibc
import Testing

/// Writes `text` to a fresh temporary directory and returns the file's path.
func temporaryFile(_ name: String, _ text: String, dir: String? = nil) -> String {
    let d: String
    if let dir { d = dir } else {
        var template = Array("/tmp/evdevtests.XXXXXX".utf8CString)
        d = template.withUnsafeMutableBufferPointer { buf in
            guard let base = buf.baseAddress, let p = mkdtemp(base) else { return "/tmp" }
            return String(cString: p)
        }
    }
    let path = d + "/" + name
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    var bytes = Array(text.utf8)
    _ = bytes.withUnsafeMutableBytes { write(fd, $0.baseAddress, $0.count) }
    close(fd)
    return path
}

func directory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return String(path[..<slash])
}

let tinyDescription = """
    # EVEMU 1.3
    N: Tiny Touch
    I: 0003 056a 00e6 0100
    P: 02 00 00 00 00 00 00 00
    B: 00 0b 00 00 00 00 00 00 00
    B: 01 00 00 00 00 00 00 00 00
    B: 01 00 00 00 00 00 00 00 00
    B: 01 00 00 00 00 00 00 00 00
    B: 01 00 00 00 00 00 00 00 00
    B: 01 00 00 00 00 00 00 00 00
    B: 01 00 04 00 00 00 00 00 00
    B: 03 03 00 00 00 00 80 60 02
    A: 00 0 1000 0 0 10
    A: 01 0 500 0 0 10
    A: 2f 0 1 0 0 0
    A: 35 0 1000 0 0 10
    A: 36 0 500 0 0 10
    A: 39 0 65535 0 0 0

    """

@Suite("evemu recordings: parsing")
struct RecordingParserTests {
    @Test("description lines become DeviceInfo: bits accumulate across B: lines, A: with resolution")
    func description() throws {
        let path = temporaryFile("Tiny.events", tinyDescription + "E: 1.000001 0003 0039 0007\nE: 1.000001 0000 0000 0000\n")
        let r = try Recording.load(path: path)
        #expect(r.info.name == "Tiny Touch")
        #expect(r.info.id == "Tiny")
        #expect(r.info.vendor == 0x056a && r.info.product == 0x00e6 && r.info.bus == 3 && r.info.version == 0x100)
        // 6th "B: 01" line, byte 1 = 0x04: bit (5*8+1)*8+2 = 330 = BTN_TOUCH.
        #expect(r.info.capabilities.keys == [BTN.TOUCH])
        // "03 03 00 00 00 00 80 60 02": bits 0,1; 47; 53,54; 57.
        #expect(Set(r.info.capabilities.axes.keys) == [0x00, 0x01, 0x2f, 0x35, 0x36, 0x39])
        #expect(r.info.isDirect)
        #expect(r.info.kind == .touchscreen)
        #expect(r.info.touchProtocol == .multitouchB)
        #expect(r.info.slotCount == 2)
        #expect(r.info.sizeMM == SizeMM(width: 100, height: 50))
        #expect(!r.info.sizeIsFallback)
        #expect(r.events == [InputEvent(time: 1.000001, type: 3, code: 0x39, value: 7),
                             InputEvent(time: 1.000001, type: 0, code: 0, value: 0)])
    }

    @Test("event lines: leading zeros are decimal, negative values, trailing comments, CRLF")
    func eventSyntax() throws {
        let path = temporaryFile("Syntax.events", tinyDescription + """
            E: 0.000001 0003 0039 0026\t# EV_ABS / ABS_MT_TRACKING_ID   26
            E: 0.000010 0003 0035 0010 # x
            E: 12.500000 0003 0039 -001\t# EV_ABS / ABS_MT_TRACKING_ID   -1\r
            # a comment line
            E: 12.500000 0000 0000 0000

            """)
        let r = try Recording.load(path: path)
        #expect(r.events.map(\.value) == [26, 10, -1, 0])
        #expect(r.events.map(\.code) == [0x39, 0x35, 0x39, 0])
        #expect(r.events[0].time == 0.000001)
        #expect(r.events[2].time == 12.5)
    }

    @Test("header-less events file finds the longest-prefix sibling description")
    func siblingLookup() throws {
        let dir = directory(of: temporaryFile("Tiny_Touch.desc", tinyDescription))
        _ = temporaryFile("Tiny.desc", tinyDescription.replacingFirst("Tiny Touch", with: "Wrong One"), dir: dir)
        _ = temporaryFile("Tiny_Touch_Pad.device", tinyDescription.replacingFirst("Tiny Touch", with: "Wrong Two"), dir: dir)
        let events = temporaryFile("Tiny_Touch_double-tap.events", "E: 1.0 0000 0000 0\n", dir: dir)
        let r = try Recording.load(path: events)
        #expect(r.info.name == "Tiny Touch")
        #expect(r.info.id == "Tiny_Touch_double-tap")
        #expect(Recording.siblingDescription(of: events) == dir + "/Tiny_Touch.desc")
        // A dot separator works too, and an explicit description wins over the sibling.
        let dotted = temporaryFile("Tiny_Touch.single-tap.events", "E: 1.0 0000 0000 0\n", dir: dir)
        #expect(try Recording.load(path: dotted).info.name == "Tiny Touch")
        #expect(try Recording.load(path: dotted, descriptionPath: dir + "/Tiny.desc").info.name == "Wrong One")
    }

    @Test("the shipped fixtures find their descriptions: '.' and '_' separators")
    func fixtureSiblings() throws {
        #expect(Recording.siblingDescription(of: Fixture.recording("tablets/Wacom_ISDv4_E6_Finger.single-tap-center.events"))
            == Fixture.recording("tablets/Wacom_ISDv4_E6_Finger.desc"))
        #expect(Recording.siblingDescription(of: Fixture.recording("tablets/Wacom_Bamboo_16FG_4x5_Finger_double-tap.events"))
            == Fixture.recording("tablets/Wacom_Bamboo_16FG_4x5_Finger.desc"))
        let r = try Recording.load(path: Fixture.recording("tablets/Wacom_Bamboo_16FG_4x5_Finger_double-tap.events"))
        #expect(r.info.name == "Wacom Bamboo 16FG 4x5 Finger")
    }

    static let malformed: [(String, Int, String)] = [
        ("E: 1.0 0003 0039\n", 1, "event needs 4 fields"),
        ("E: 1.0 0003 0039 0\nE: x.5 0003 0039 0\n", 2, "bad event time"),
        ("E: 1.0 00g3 0039 0\n", 1, "bad event type"),
        ("E: 1.0 0003 0039 12a\n", 1, "bad event value"),
        ("E: 1.0 0003 0039 99999999999\n", 1, "bad event value"),
        ("\n\nZ: what\n", 3, "unknown line type"),
        ("hello\n", 1, "not an evemu line"),
        ("# EVEMU 2.0\n", 1, "unsupported evemu format version 2.0"),
        ("A: 35 100 0 0 0 0\n", 1, "min 100 > max 0"),
        ("A: 35 0 100\n", 1, "A: needs code min max fuzz flat"),
        ("B: 03 zz\n", 1, "bad hex byte"),
        ("I: 0003 056a\n", 1, "I: needs bus vendor product version"),
    ]

    @Test("malformed lines are reported with file and line", arguments: 0..<malformed.count)
    func malformedLine(_ index: Int) throws {
        let (text, line, message) = Self.malformed[index]
        let path = temporaryFile("Bad\(index).events", text)
        do {
            _ = try Recording.load(path: path)
            Issue.record("expected an error for \(text.debugDescription)")
        } catch {
            #expect(error.file == path)
            #expect(error.line == line)
            #expect(error.message.contains(message), "\(error)")
            #expect(error.description.hasPrefix("\(path):\(line): "))
        }
    }

    @Test("a recording without any description says so")
    func missingDescription() throws {
        let path = temporaryFile("Nothing.events", "E: 1.0 0000 0000 0\n")
        #expect(throws: RecordingError.self) { try Recording.load(path: path) }
        do { _ = try Recording.load(path: path) } catch { #expect(error.message.contains("no device description")) }
    }

    @Test("a missing file is an error, not a crash")
    func missingFile() throws {
        do {
            _ = try Recording.load(path: "/nonexistent/x.events")
            Issue.record("expected an error")
        } catch {
            #expect(error.description.hasPrefix("/nonexistent/x.events: cannot open"))
        }
    }
}

extension String {
    func replacingFirst(_ a: String, with b: String) -> String {
        guard let r = firstRange(of: a) else { return self }
        var s = self
        s.replaceSubrange(r, with: b)
        return s
    }
}
