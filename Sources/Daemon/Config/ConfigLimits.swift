/// Explicit bounds on a configuration file, checked in one linear pass before the TOML parser
/// sees it, so that no file can make loading (at start or on SIGHUP) slow or deep: a key with
/// 30,000 dotted parts took the parser 30–40 s, nesting recurses per level. Each bound is far
/// above what a hand-written config needs.
enum ConfigLimits {
    static let maxFileBytes = 1 << 20
    static let maxLineBytes = 16384
    /// Parts of one key or table header: `a.b.c` has 3.
    static let maxKeyParts = 8
    /// Arrays and inline tables inside each other.
    static let maxNesting = 8

    /// The first bound the text passes, located by line.
    static func check(_ text: String, file: String) -> ConfigError? {
        func fail(_ line: Int, _ message: String) -> ConfigError {
            ConfigError(file: file, line: line, key: "", message: message)
        }
        if text.utf8.count > maxFileBytes {
            return fail(0, "file larger than \(maxFileBytes >> 10) KiB (the limit)")
        }
        var scanner = Scanner()
        var line = 1
        var lineStart = 0
        var offset = 0
        for b in text.utf8 {
            scanner.feed(b)
            if scanner.keyParts > maxKeyParts {
                return fail(line, "a key or table name with more than \(maxKeyParts) dotted parts (the limit)")
            }
            if scanner.sawNUL {
                return fail(line, "a string contains a NUL character (\\u0000): exec, getgrnam and bind would silently cut it there")
            }
            if scanner.badHeader {
                return fail(line, "a table header must start with a name: [name] or [[name]]")
            }
            if scanner.braceForArrayValue {
                return fail(line, "`}` where an array expects a value or `]`")
            }
            if scanner.nesting.count > maxNesting {
                return fail(line, "arrays or inline tables nested deeper than \(maxNesting) levels (the limit)")
            }
            if b == UInt8(ascii: "\n") {
                if offset - lineStart > maxLineBytes { return fail(line, "line longer than \(maxLineBytes) bytes (the limit)") }
                line += 1
                lineStart = offset + 1
            }
            offset += 1
        }
        if offset - lineStart > maxLineBytes { return fail(line, "line longer than \(maxLineBytes) bytes (the limit)") }
        return nil
    }

    /// Just enough of TOML's lexical structure to count key parts and nesting: strings
    /// (basic, literal, multi-line), comments, brackets, and where a key may start.
    private struct Scanner {
        enum Quote { case basic, literal, multiBasic, multiLiteral }
        var quote: Quote? = nil
        var escaped = false
        /// Quote characters seen in a row (to find `"""` and `'''`, and the end of `""`).
        var run: (byte: UInt8, count: Int) = (0, 0)
        var inComment = false
        var nesting: [UInt8] = []
        /// True where a key is being read: at a line start, in a table header, after `{` or `,`
        /// in an inline table.
        var inKey = true
        var inHeader = false
        var keyParts = 1
        var atLineStart = true
        /// `\u0000` or `\U00000000` in a basic string: how many zeros are still needed.
        var nulZerosNeeded = 0
        var sawNUL = false
        /// Just after a header's `[`: the parser (toml++) asserts that a name follows, so
        /// anything else (`[{x]`) is rejected here instead of aborting there.
        var headerStart = false
        var lastWasOpen = false
        var badHeader = false
        /// After an array's `[` or `,`: toml++ asserts (in release builds too) that a `}` there
        /// is a value (`a = [1, }]`), so it is rejected here instead of aborting there.
        var expectingArrayValue = false
        var braceForArrayValue = false

        mutating func feed(_ b: UInt8) {
            let dq = UInt8(ascii: "\""), sq = UInt8(ascii: "'")
            if b == dq || b == sq { run = run.byte == b ? (b, run.count + 1) : (b, 1) } else { run = (0, 0) }
            if nulZerosNeeded > 0 {
                if b == UInt8(ascii: "0") { nulZerosNeeded -= 1; sawNUL = nulZerosNeeded == 0; return }
                nulZerosNeeded = 0
            }
            if let q = quote {
                if escaped && (q == .basic || q == .multiBasic) && (b == UInt8(ascii: "u") || b == UInt8(ascii: "U")) {
                    escaped = false
                    nulZerosNeeded = b == UInt8(ascii: "u") ? 4 : 8
                    return
                }
                switch q {
                case .basic:
                    if escaped { escaped = false } else if b == UInt8(ascii: "\\") { escaped = true } else if b == dq || b == 10 { quote = nil }
                case .literal:
                    if b == sq || b == 10 { quote = nil }
                case .multiBasic:
                    if escaped { escaped = false } else if b == UInt8(ascii: "\\") { escaped = true } else if b == dq && run.count == 3 { quote = nil; run = (0, 0) }
                case .multiLiteral:
                    if b == sq && run.count == 3 { quote = nil; run = (0, 0) }
                }
                return
            }
            if inComment {
                if b == 10 { inComment = false } else { return }
            }
            if b == UInt8(ascii: " ") || b == UInt8(ascii: "\t") || b == UInt8(ascii: "\r") {
                lastWasOpen = false
                return
            }
            if headerStart {
                if b == UInt8(ascii: "[") && lastWasOpen { lastWasOpen = false; return }  // [[
                headerStart = false
                lastWasOpen = false
                let c = Character(Unicode.Scalar(b))
                let named = c.isASCII && (c.isLetter || c.isNumber || c == "_" || c == "-") || b == dq || b == sq || c == "]"
                if !named { badHeader = true }
            }
            let valueExpected = expectingArrayValue
            if b != 10 && b != UInt8(ascii: "#") { expectingArrayValue = false }  // line breaks and comments may come first
            switch b {
            case 10:
                if nesting.isEmpty { inKey = true; keyParts = 1; inHeader = false }
                atLineStart = true
                return
            case UInt8(ascii: "#"):
                inComment = true
            case dq, sq:
                // `""` then a third quote opens a multi-line string; `""` alone is an empty string.
                if run.count == 3 { quote = b == dq ? .multiBasic : .multiLiteral; run = (0, 0) } else if run.count == 1 { quote = b == dq ? .basic : .literal }
                else if run.count == 2 { quote = nil }
            case UInt8(ascii: "["):
                if atLineStart && nesting.isEmpty {
                    inHeader = true; inKey = true; keyParts = 1; headerStart = true; lastWasOpen = true
                } else if !inHeader {
                    nesting.append(b); inKey = false; expectingArrayValue = true
                }
            case UInt8(ascii: "{"):
                nesting.append(b); inKey = true; keyParts = 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                if b == UInt8(ascii: "}") && valueExpected && nesting.last == UInt8(ascii: "[") { braceForArrayValue = true }
                if inHeader { inHeader = false; inKey = false } else if !nesting.isEmpty { nesting.removeLast() }
            case UInt8(ascii: ","):
                if nesting.last == UInt8(ascii: "{") { inKey = true; keyParts = 1 }
                if nesting.last == UInt8(ascii: "[") { expectingArrayValue = true }
            case UInt8(ascii: "="):
                inKey = false
            case UInt8(ascii: "."):
                if inKey { keyParts += 1 }
            default:
                break
            }
            atLineStart = false
        }
    }
}
