import CLibevdev

/// Keys pressed together, e.g. "ctrl+r": pressed in order, released in reverse.
///
/// Names are those of linux/input-event-codes.h, case-insensitive, with or without the KEY_
/// prefix ("r", "KEY_R", "f5", "leftctrl"), resolved by libevdev_event_code_from_name; ctrl,
/// alt, shift and super stand for the left-hand modifier keys. Buttons (BTN_*) are not keys:
/// clicks go through the virtual pointer.
public struct KeyChord: Sendable, Equatable, CustomStringConvertible {
    /// At most this many keys in one chord (a hand has five fingers; shortcuts use up to four).
    public static let maxKeys = 8

    public let codes: [UInt16]
    /// As written in the configuration.
    public let text: String

    public var description: String { text }

    static let modifiers: [String: String] = [
        "CTRL": "KEY_LEFTCTRL", "ALT": "KEY_LEFTALT", "SHIFT": "KEY_LEFTSHIFT", "SUPER": "KEY_LEFTMETA",
    ]

    public init(parsing text: String) throws(KeyChordError) {
        self.text = text
        let names = text.split(separator: "+", omittingEmptySubsequences: false).map { Self.trim($0) }
        if names.allSatisfy(\.isEmpty) { throw KeyChordError("an empty chord: name at least one key") }
        if let empty = names.firstIndex(where: \.isEmpty) {
            throw KeyChordError("\"\(text)\" has an empty key name at position \(empty + 1) (keys are joined by +)")
        }
        guard names.count <= Self.maxKeys else {
            throw KeyChordError("\"\(text)\" has \(names.count) keys; a chord holds at most \(Self.maxKeys)")
        }
        var codes: [UInt16] = []
        for name in names {
            let code = try Self.code(named: name)
            if codes.contains(code) { throw KeyChordError("\"\(text)\" names the key \"\(name)\" twice") }
            codes.append(code)
        }
        self.codes = codes
    }

    /// The EV_KEY code of a key name.
    public static func code(named name: String) throws(KeyChordError) -> UInt16 {
        let upper = String(name.uppercased())
        let full = modifiers[upper] ?? (upper.hasPrefix("KEY_") || upper.hasPrefix("BTN_") ? upper : "KEY_" + upper)
        if full.hasPrefix("BTN_") {
            throw KeyChordError("\"\(name)\" is a button, not a key: use click = \"left\", \"right\" or \"middle\"")
        }
        let code = libevdev_event_code_from_name(UInt32(EV.KEY), full)
        guard code >= 0, isKey(UInt16(code)) else {
            throw KeyChordError("unknown key \"\(name)\" (names as in linux/input-event-codes.h without KEY_, e.g. \"r\", \"f5\", \"enter\", \"leftctrl\"; or ctrl, alt, shift, super)")
        }
        return UInt16(code)
    }

    /// True for the EV_KEY codes that are keys (KEY_*), not buttons (BTN_*): what the virtual
    /// keyboard offers.
    public static func isKey(_ code: UInt16) -> Bool {
        guard code > 0, code <= 0x2ff, let name = libevdev_event_code_get_name(UInt32(EV.KEY), UInt32(code)) else { return false }
        return String(cString: name).hasPrefix("KEY_")
    }

    /// Types the chords one after the other on `sink`: each key pressed in order, then released
    /// in reverse, one frame per key event (applications see each as a separate key event).
    public static func type(_ chords: [KeyChord], on sink: FrameSink) throws(DeviceError) {
        for chord in chords {
            for code in chord.codes {
                sink.append(type: EV.KEY, code: code, value: 1)
                try sink.sendFrame()
            }
            for code in chord.codes.reversed() {
                sink.append(type: EV.KEY, code: code, value: 0)
                try sink.sendFrame()
            }
        }
    }

    private static func trim(_ s: Substring) -> String {
        String(s.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}

/// Why a key chord cannot be typed (a configuration error; the loader adds file, line and key).
public struct KeyChordError: Error, Sendable, CustomStringConvertible {
    public var description: String
    init(_ message: String) { description = message }
}
