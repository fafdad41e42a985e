import Testing
@testable import GestureKit

/// A device's name is the kernel's, chosen by whoever made the device (a USB descriptor, a
/// uinput user): made printable, it can neither split a log line nor reach a terminal as an
/// escape sequence.
@Suite struct PrintableTests {
    @Test func controlCharactersAreShownNotSent() {
        #expect(Printable.escaping("Evil\npanel") == #"Evil\u{0A}panel"#)
        #expect(Printable.escaping("x\u{1b}[2Jy") == #"x\u{1B}[2Jy"#)
        #expect(Printable.escaping("a\rb\tc\u{7}d\u{7f}e\0f") == #"a\u{0D}b\u{09}c\u{07}d\u{7F}e\u{00}f"#)
        // C1 controls (CSI as one character), bidirectional overrides, line separators.
        #expect(Printable.escaping("\u{9b}31m\u{85}") == #"\u{9B}31m\u{85}"#)
        #expect(Printable.escaping("abc\u{202e}fed\u{2028}\u{200b}") == #"abc\u{202E}fed\u{2028}\u{200B}"#)
    }

    @Test func printableNamesAreUnchangedAndEscapingTwiceChangesNothing() {
        for name in ["Wacom ISDv4 E6 Finger", "ELAN Touchscreen", "Écran tactile ☃ 触摸屏", #"a\b"#, ""] {
            #expect(Printable.escaping(name) == name)
            #expect(Printable.escaping(bytes: Array(name.utf8)) == name)
        }
        let once = Printable.escaping("x\n\u{1b}y")
        #expect(Printable.escaping(once) == once)
    }

    @Test func bytesThatAreNotUTF8AreShownByteByByte() {
        // A lone continuation byte, a truncated sequence, an overlong encoding, 0xFF.
        #expect(Printable.escaping(bytes: [0x41, 0x80, 0x42]) == #"A\x80B"#)
        #expect(Printable.escaping(bytes: [0x41, 0xe2, 0x82]) == #"A\xE2\x82"#)
        #expect(Printable.escaping(bytes: [0xc0, 0xaf, 0xff]) == #"\xC0\xAF\xFF"#)
        // Valid multibyte text around them stays text; an escape byte is escaped as a character.
        #expect(Printable.escaping(bytes: Array("é".utf8) + [0xfe] + [0x1b] + Array("☃".utf8)) == #"é\xFE\u{1B}☃"#)
    }

    /// Nothing that comes out holds a character a terminal or journald acts on.
    @Test func theOutputIsAlwaysPrintable() {
        var bytes: [UInt8] = []
        for b in 0...255 { bytes.append(UInt8(b)) }
        let out = Printable.escaping(bytes: bytes)
        #expect(!out.unicodeScalars.contains { Printable.needsEscape($0) })
        #expect(!out.utf8.contains { $0 < 0x20 || $0 == 0x7f })
    }
}
