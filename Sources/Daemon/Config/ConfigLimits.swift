/// Explicit bounds on a configuration file, checked in one linear pass (TOMLScanner) before the TOML parser
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

    /// One pass of `TOMLScanner` over the text: the first bound it passes, located by line, and
    /// the line of every key and table header.
    static func scan(_ text: String, file: String) -> (error: ConfigError?, lines: KeyLineIndex) {
        var lines = KeyLineIndex()
        let error = scan(text, file: file, into: &lines)
        return (error, lines)
    }

    private static func scan(_ text: String, file: String, into lines: inout KeyLineIndex) -> ConfigError? {
        func fail(_ line: Int, _ message: String) -> ConfigError {
            ConfigError(file: file, line: line, key: "", message: message)
        }
        if text.utf8.count > maxFileBytes {
            return fail(0, "file larger than \(maxFileBytes >> 10) KiB (the limit)")
        }
        var scanner = TOMLScanner()
        var line = 1
        var lineStart = 0
        var offset = 0
        for b in text.utf8 {
            if let item = scanner.feed(b) { lines.add(item, line: line) }
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
}
