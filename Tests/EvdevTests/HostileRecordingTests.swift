import Evdev
import Glibc
import Testing

/// Recordings written to break the parser: each is rejected with file, line and the
/// limit it passed, never a trap, a giant allocation or time that grows faster than the input.
@Suite("evemu and libinput recordings: hostile input")
struct HostileRecordingTests {
    private func rejection(_ name: String, _ text: String) -> RecordingError? {
        let path = temporaryFile(name, text)
        do {
            _ = try Recording.load(path: path)
            return nil
        } catch {
            #expect(error.file == path)
            return error
        }
    }

    static let evemu: [(String, Int, String)] = [
        // Used to trap converting (offset + i) * 8 + bit to UInt16.
        ("P: " + String(repeating: "ff ", count: 97) + "\n", 1, "P: more than 96 bytes of properties"),
        (String(repeating: "B: 01 00 00 00 00 00 00 00 00\n", count: 1024), 13, "B: more than 96 bytes for event type 1"),
        (tinyDescription.replacingFirst("A: 2f 0 1 0 0 0", with: "A: 2f 0 2147483647 0 0 0"), 15, "more than 256 slots"),
        (tinyDescription.replacingFirst("A: 2f 0 1 0 0 0", with: "A: 2f 0 100000000 0 0 0"), 15, "more than 256 slots"),
        // Used to trap in the paced replay's timer and in mtdev's timeval.
        ("E: 18446744073709551615.000000 0000 0000 0\n", 1, "later than 100000000000 s"),
        ("E: 1.0 0000 0000 0\n# " + String(repeating: "x", count: 20000) + "\n", 2, "line longer than 16384 bytes"),
    ]

    @Test("evemu: limits with file and line", arguments: 0..<evemu.count)
    func evemuLimit(_ i: Int) {
        let (text, line, message) = Self.evemu[i]
        let e = rejection("Hostile\(i).events", text)
        #expect(e?.line == line, "\(String(describing: e))")
        #expect(e?.message.contains(message) == true, "\(String(describing: e))")
    }

    @Test("evemu: a CRLF recording parses, and its errors name the right line")
    func evemuCRLF() throws {
        let crlf = (tinyDescription + "E: 1.000001 0003 0039 0007\nE: 1.000001 0000 0000 0000\n").replacingAll("\n", with: "\r\n")
        let r = try Recording.load(path: temporaryFile("Crlf.events", crlf))
        #expect(r.events.count == 2)
        #expect(r.info.slotCount == 2)
        let e = rejection("CrlfBad.events", "E: 1.0 0000 0000 0\r\n\r\nE: 1.0 0003\r\n")
        #expect(e?.line == 3, "\(String(describing: e))")
        #expect(e?.message.contains("event needs 4 fields") == true)
    }

    @Test("evemu: invalid UTF-8 keeps line numbers")
    func evemuInvalidUTF8() {
        let path = temporaryFileBytes("Utf.events", Array("E: 1.0 0000 0000 0\nN: ".utf8) + [0xff, 0xfe] + Array("\nE: bad\n".utf8))
        do {
            _ = try Recording.load(path: path)
            Issue.record("expected an error")
        } catch {
            #expect(error.line == 3, "\(error)")
        }
    }

    static let yamlHead = "version: 1\ndevices:\n- node: /dev/input/event1\n  evdev:\n    name: \"x\"\n    id: [1, 2, 3, 4]\n"

    static let libinput: [(String, Int, String)] = [
        (yamlHead + "    absinfo:\n      47: [0, 2147483647, 0, 0, 0]\n", 8, "more than 256 slots"),
        // Used to take 16 s (the indent was counted with an O(n) index per space).
        (yamlHead + String(repeating: " ", count: 60000) + "x: 1\n", 7, "line longer than 16384 bytes"),
        (yamlHead + (0..<20).map { String(repeating: "  ", count: $0) + "k\($0):\n" }.joined(), 23, "nested deeper than 16 levels"),
        (yamlHead + "  events:\n  - evdev:\n    - [18446744073709, 0, 0, 0, 0]\n", 9, "later than 100000000000 s"),
        ((yamlHead + "  events:\n  - evdev:\n    - [0, 0, 3]\n").replacingAll("\n", with: "\r\n"), 9, "event needs"),
    ]

    @Test("libinput record: limits with file and line", arguments: 0..<libinput.count)
    func libinputLimit(_ i: Int) {
        let (text, line, message) = Self.libinput[i]
        let e = rejection("hostile\(i).yml", text)
        #expect(e?.line == line, "\(String(describing: e))")
        #expect(e?.message.contains(message) == true, "\(String(describing: e))")
    }

    @Test("a slot count past the limit never reaches the tracker")
    func slotClamp() {
        var caps = DeviceCapabilities()
        caps.axes[ABS.MT_POSITION_X] = AxisInfo(minimum: 0, maximum: 100)
        caps.axes[ABS.MT_POSITION_Y] = AxisInfo(minimum: 0, maximum: 100)
        caps.axes[ABS.MT_SLOT] = AxisInfo(minimum: 0, maximum: Int32.max)
        let info = DeviceInfo(name: "x", bus: 3, vendor: 1, product: 2, version: 0, capabilities: caps)
        #expect(info.slotCount == DeviceInfo.maxSlots)
    }
}

func temporaryFileBytes(_ name: String, _ bytes: [UInt8]) -> String {
    let path = temporaryFile(name, "")
    let fd = open(path, O_WRONLY | O_TRUNC)
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    close(fd)
    return path
}

extension String {
    func replacingAll(_ a: String, with b: String) -> String {
        split(separator: a, omittingEmptySubsequences: false).joined(separator: b)
    }
}
