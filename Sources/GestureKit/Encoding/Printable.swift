/// Text from outside — a device's name (the kernel's, which anyone who can plug in a USB device
/// or open /dev/uinput chooses), a topic a broker sent — made safe to log and print: it can
/// neither start another journal entry or log line nor send an escape sequence to the terminal
/// that reads it. Every character that is not printable is written as a visible escape:
/// control characters (C0, DEL, C1: newline, ESC, CSI…), format characters (bidirectional
/// overrides, zero-width joiners), line and paragraph separators as `\u{XX}`, and bytes that
/// are not UTF-8 as `\xNN`. Printable text, backslashes included, is left as it is, so escaping
/// twice changes nothing and a name that was already printable is unchanged.
public enum Printable {
    /// Raw bytes (a C string as the kernel gave it), invalid UTF-8 shown byte by byte.
    public static func escaping<Bytes: Collection>(bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var out = ""
        var rest = bytes[...]
        while let first = rest.first {
            let length = sequenceLength(first)
            let candidate = rest.prefix(length)
            if length > 0, candidate.count == length, let s = String(validating: candidate, as: UTF8.self),
               let scalar = s.unicodeScalars.first, s.unicodeScalars.count == 1 {
                append(scalar, to: &out)
                rest = rest.dropFirst(length)
            } else {
                out += "\\x" + hex(first, digits: 2)
                rest = rest.dropFirst()
            }
        }
        return out
    }

    /// A String (already valid Unicode; what it cannot show is escaped).
    public static func escaping(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = ""
        for scalar in text.unicodeScalars { append(scalar, to: &out) }
        return out
    }

    /// Whether a character would be escaped.
    public static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned, .privateUse: true
        default: false
        }
    }

    private static func append(_ scalar: Unicode.Scalar, to out: inout String) {
        if needsEscape(scalar) {
            out += "\\u{" + hex(scalar.value, digits: 2) + "}"
        } else {
            out.unicodeScalars.append(scalar)
        }
    }

    /// The length of the UTF-8 sequence a lead byte starts (0: not a lead byte).
    private static func sequenceLength(_ b: UInt8) -> Int {
        switch b {
        case 0x00...0x7f: 1
        case 0xc2...0xdf: 2
        case 0xe0...0xef: 3
        case 0xf0...0xf4: 4
        default: 0
        }
    }

    private static func hex<T: BinaryInteger>(_ v: T, digits: Int) -> String {
        let s = String(v, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - s.count)) + s
    }
}
