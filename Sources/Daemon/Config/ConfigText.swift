/// Text from a config that must stay on one line: a name, a path, a topic, a key. A control
/// character there (a line break above all) could start a line of its own wherever the text is
/// written out — a unit file, a log line, a reply — so it is refused where it is read.
enum ConfigText {
    /// The first control character (Unicode Cc: U+0000–001F, U+007F–009F) in `s`.
    static func controlCharacter(in s: String) -> Unicode.Scalar? {
        s.unicodeScalars.first { $0.value < 0x20 || (0x7f...0x9f).contains($0.value) }
    }

    static func refusal(_ c: Unicode.Scalar) -> String {
        "contains the control character \(codePoint(c)): names, paths and keys are one line of printable text"
    }

    /// `U+000A`.
    static func codePoint(_ c: Unicode.Scalar) -> String {
        let hex = String(c.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// `s` with each control character written as its code point, for a message that names it.
    static func escaped(_ s: String) -> String {
        var out = ""
        for c in s.unicodeScalars {
            if controlCharacter(in: String(c)) != nil { out += "<\(codePoint(c))>" } else { out.unicodeScalars.append(c) }
        }
        return out
    }
}
