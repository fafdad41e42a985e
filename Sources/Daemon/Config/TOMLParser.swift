/// A TOML text's first syntax error: where, and what.
struct TOMLSyntaxError: Error, Equatable {
    let line: Int
    let column: Int
    let message: String
}

/// Parses TOML 1.0 into `TOMLTable`, all in Swift values (TOMLValue says why). Strict where the
/// spec is: a table or key defined twice, a value after which the line does not end, a control
/// character in a string or comment, a malformed number or date each stop the parse.
struct TOMLParser {
    /// How deep arrays and inline tables may nest: the parse recurses once a level.
    /// `ConfigLimits.scan` refuses a config nested past its own, smaller limit before this runs.
    static let maxNesting = 64

    private let bytes: [UInt8]
    private var i = 0

    static func parse(_ text: String) throws(TOMLSyntaxError) -> TOMLTable {
        var p = TOMLParser(bytes: Array(text.utf8))
        return try p.document()
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    // MARK: The tree while it is built

    /// A table under construction: how it came to be decides what may still add to it.
    private final class Building {
        enum Origin { case implicit, header, dotted, inline }
        var origin: Origin
        var entries: [String: Entry] = [:]
        init(_ origin: Origin) { self.origin = origin }

        var frozen: TOMLTable {
            TOMLTable(entries.mapValues { e in
                switch e {
                case .value(let v): v
                case .table(let t): .table(t.frozen)
                case .tables(let ts): .array(ts.map { .table($0.frozen) })
                }
            })
        }
    }

    private enum Entry {
        case value(TOMLValue)  // a string, number, array or inline table: closed
        case table(Building)
        case tables([Building])  // [[name]]
    }

    // MARK: Document

    private mutating func document() throws(TOMLSyntaxError) -> TOMLTable {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
        let root = Building(.header)
        var current = root
        while true {
            skipSpaces()
            guard let c = peek() else { break }
            if c == UInt8(ascii: "[") {
                current = try header(root)
            } else if c != UInt8(ascii: "#") && c != UInt8(ascii: "\n") && c != UInt8(ascii: "\r") {
                try keyValue(into: current, nesting: 0)
            }
            try endOfLine()
        }
        return root.frozen
    }

    /// `[a.b]` or `[[a.b]]`; returns the table the following keys go into.
    private mutating func header(_ root: Building) throws(TOMLSyntaxError) -> Building {
        let start = i
        i += 1
        let isArray = peek() == UInt8(ascii: "[")
        if isArray { i += 1 }
        skipSpaces()
        let keys = try key()
        skipSpaces()
        try expect("]", "expected ] to close the header")
        if isArray { try expect("]", "expected ]] to close the header") }
        let name = keys.joined(separator: ".")
        var table = root
        for k in keys.dropLast() {
            switch table.entries[k] {
            case nil:
                let t = Building(.implicit)
                table.entries[k] = .table(t)
                table = t
            case .table(let t) where t.origin != .inline: table = t
            case .tables(let ts): table = ts[ts.count - 1]
            default: throw error(at: start, "[\(name)]: \(k) is already a value, not a table")
            }
        }
        let last = keys[keys.count - 1]
        let made = Building(.header)
        switch (table.entries[last], isArray) {
        case (nil, false): table.entries[last] = .table(made)
        case (nil, true): table.entries[last] = .tables([made])
        case (.tables(let ts), true): table.entries[last] = .tables(ts + [made])
        case (.table(let t), false) where t.origin == .implicit:
            t.origin = .header
            return t
        case (_, false): throw error(at: start, "table [\(name)] is defined twice")
        case (_, true): throw error(at: start, "[[\(name)]]: \(name) is already defined, not as an array of tables")
        }
        return made
    }

    /// `a.b = value` into `table`.
    private mutating func keyValue(into table: Building, nesting: Int) throws(TOMLSyntaxError) {
        let start = i
        let keys = try key()
        skipSpaces()
        try expect("=", "expected = after the key")
        skipSpaces()
        let v = try value(nesting: nesting)
        var t = table
        for k in keys.dropLast() {
            switch t.entries[k] {
            case nil:
                let made = Building(.dotted)
                t.entries[k] = .table(made)
                t = made
            case .table(let d) where d.origin == .dotted: t = d
            default: throw error(at: start, "\(keys.joined(separator: ".")): \(k) is already defined")
            }
        }
        let last = keys[keys.count - 1]
        guard t.entries[last] == nil else { throw error(at: start, "key \(keys.joined(separator: ".")) is defined twice") }
        t.entries[last] = .value(v)
    }

    /// A dotted key: its parts, unquoted.
    private mutating func key() throws(TOMLSyntaxError) -> [String] {
        var parts: [String] = []
        while true {
            switch peek() {
            case let q? where q == UInt8(ascii: "\"") || q == UInt8(ascii: "'"): parts.append(try string(quote: q, multiline: false))
            default:
                let s = i
                while let c = peek(), Self.isBare(c) { i += 1 }
                guard i > s else { throw error(at: i, "expected a key") }
                parts.append(String(decoding: bytes[s..<i], as: UTF8.self))
            }
            skipSpaces()
            guard peek() == UInt8(ascii: ".") else { return parts }
            i += 1
            skipSpaces()
        }
    }

    private static func isBare(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x5F || c == 0x2D
    }

    // MARK: Values

    private mutating func value(nesting: Int) throws(TOMLSyntaxError) -> TOMLValue {
        guard nesting < Self.maxNesting else { throw error(at: i, "nested deeper than \(Self.maxNesting) levels") }
        switch peek() {
        case UInt8(ascii: "\""): return .string(try string(quote: UInt8(ascii: "\""), multiline: looking(at: "\"\"\"")))
        case UInt8(ascii: "'"): return .string(try string(quote: UInt8(ascii: "'"), multiline: looking(at: "'''")))
        case UInt8(ascii: "["): return try array(nesting: nesting + 1)
        case UInt8(ascii: "{"): return try inlineTable(nesting: nesting + 1)
        case nil: throw error(at: i, "expected a value")
        default: return try scalar()
        }
    }

    private mutating func array(nesting: Int) throws(TOMLSyntaxError) -> TOMLValue {
        i += 1
        var out: [TOMLValue] = []
        while true {
            try skipBlank()
            if peek() == UInt8(ascii: "]") { i += 1; return .array(out) }
            out.append(try value(nesting: nesting))
            try skipBlank()
            switch peek() {
            case UInt8(ascii: ","): i += 1
            case UInt8(ascii: "]"): i += 1; return .array(out)
            default: throw error(at: i, "expected , or ] in an array")
            }
        }
    }

    /// `{ a = 1, b.c = 2 }`: one line, no trailing comma (TOML 1.0); closed once read.
    private mutating func inlineTable(nesting: Int) throws(TOMLSyntaxError) -> TOMLValue {
        i += 1
        let t = Building(.inline)
        skipSpaces()
        if peek() == UInt8(ascii: "}") { i += 1; return .table(t.frozen) }
        while true {
            skipSpaces()
            try keyValue(into: t, nesting: nesting)
            skipSpaces()
            switch peek() {
            case UInt8(ascii: ","): i += 1
            case UInt8(ascii: "}"): i += 1; return .table(t.frozen)
            default: throw error(at: i, "expected , or } in an inline table (which is one line)")
            }
        }
    }

    /// true, false, a number, a date or a time.
    private mutating func scalar() throws(TOMLSyntaxError) -> TOMLValue {
        let start = i
        while let c = peek(), Self.isBare(c) || c == UInt8(ascii: "+") || c == UInt8(ascii: ".") || c == UInt8(ascii: ":") {
            i += 1
        }
        // A date and a time may be separated by one space.
        if i - start == 10, peek() == UInt8(ascii: " "), i + 1 < bytes.count, Self.isDigit(bytes[i + 1]),
           bytes[start + 4] == UInt8(ascii: "-") {
            i += 1
            while let c = peek(), Self.isBare(c) || c == UInt8(ascii: "+") || c == UInt8(ascii: ".") || c == UInt8(ascii: ":") {
                i += 1
            }
        }
        let token = Array(bytes[start..<i])
        guard !token.isEmpty else { throw error(at: start, "expected a value") }
        let text = String(decoding: token, as: UTF8.self)
        switch text {
        case "true": return .boolean(true)
        case "false": return .boolean(false)
        case "inf", "+inf": return .float(.infinity)
        case "-inf": return .float(-.infinity)
        case "nan", "+nan", "-nan": return .float(.nan)
        default: break
        }
        if let kind = TOMLNumbers.dateTimeKind(token) { return .dateTime(text, kind) }
        switch TOMLNumbers.number(token) {
        case .some(.integer(let n)): return .integer(n)
        case .some(.float(let x)): return .float(x)
        case .some(.outOfRange): throw error(at: start, "\(text) is out of range for a 64-bit integer")
        case nil: throw error(at: start, "not a value: \(text)")
        }
    }

    // MARK: Strings

    /// A string opened by `quote`: `"…"` or `"""…"""` with its escapes decoded, `'…'` or
    /// `'''…'''` as written (a literal string has no escapes).
    private mutating func string(quote: UInt8, multiline: Bool) throws(TOMLSyntaxError) -> String {
        let escapes = quote == UInt8(ascii: "\"")
        let start = i
        i += multiline ? 3 : 1
        if multiline { skipOneNewline() }
        var out: [UInt8] = []
        while true {
            guard let c = peek() else { throw error(at: start, "unterminated string") }
            switch c {
            case quote:
                if !multiline { i += 1; return String(decoding: out, as: UTF8.self) }
                let run = quoteRun(c)
                if run >= 3 {
                    guard run <= 5 else { throw error(at: i, "too many quotes at the end of a string") }
                    out += Array(repeating: c, count: run - 3)
                    i += run
                    return String(decoding: out, as: UTF8.self)
                }
                out += Array(repeating: c, count: run)
                i += run
            case UInt8(ascii: "\\") where escapes:
                if multiline, lineEndingBackslash() { continue }
                out += try escape()
            case UInt8(ascii: "\n") where multiline:
                out.append(c); i += 1
            case UInt8(ascii: "\r") where multiline && i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "\n"):
                out.append(UInt8(ascii: "\n")); i += 2
            default:
                try refuseControl(c, in: "a string")
                out.append(c); i += 1
            }
        }
    }

    /// `'…'` or `'''…'''`, as written.
    private func quoteRun(_ q: UInt8) -> Int {
        var n = 0
        while i + n < bytes.count && bytes[i + n] == q { n += 1 }
        return n
    }

    /// In a multi-line basic string, `\` at the end of a line joins it to the next non-blank text.
    private mutating func lineEndingBackslash() -> Bool {
        var j = i + 1
        while j < bytes.count, bytes[j] == 0x20 || bytes[j] == 0x09 { j += 1 }
        guard j < bytes.count, bytes[j] == 0x0A || (bytes[j] == 0x0D && j + 1 < bytes.count && bytes[j + 1] == 0x0A) else {
            return false
        }
        while j < bytes.count, bytes[j] == 0x20 || bytes[j] == 0x09 || bytes[j] == 0x0A
                || (bytes[j] == 0x0D && j + 1 < bytes.count && bytes[j + 1] == 0x0A) { j += 1 }
        i = j
        return true
    }

    private mutating func escape() throws(TOMLSyntaxError) -> [UInt8] {
        let start = i
        i += 1
        guard let c = peek() else { throw error(at: start, "unterminated string") }
        i += 1
        switch c {
        case UInt8(ascii: "b"): return [0x08]
        case UInt8(ascii: "t"): return [0x09]
        case UInt8(ascii: "n"): return [0x0A]
        case UInt8(ascii: "f"): return [0x0C]
        case UInt8(ascii: "r"): return [0x0D]
        case UInt8(ascii: "\""): return [0x22]
        case UInt8(ascii: "\\"): return [0x5C]
        case UInt8(ascii: "u"), UInt8(ascii: "U"):
            let n = c == UInt8(ascii: "u") ? 4 : 8
            guard i + n <= bytes.count, let code = UInt32(String(decoding: bytes[i..<(i + n)], as: UTF8.self), radix: 16),
                  let scalar = Unicode.Scalar(code) else {
                throw error(at: start, "\\\(Character(Unicode.Scalar(c))) needs \(n) hex digits of a Unicode scalar value")
            }
            i += n
            return Array(String(Character(scalar)).utf8)
        default:
            throw error(at: start, "unknown escape \\\(Character(Unicode.Scalar(c)))")
        }
    }

    /// Tab is the one control character a string or comment may hold.
    private func refuseControl(_ c: UInt8, in what: String) throws(TOMLSyntaxError) {
        if (c < 0x20 && c != 0x09) || c == 0x7F {
            throw error(at: i, c == 0x0A || c == 0x0D ? "line break in \(what)" : "control character 0x\(String(c, radix: 16)) in \(what)")
        }
    }

    // MARK: Blanks and lines

    private func peek() -> UInt8? { i < bytes.count ? bytes[i] : nil }

    private func looking(at s: StaticString) -> Bool {
        let n = s.utf8CodeUnitCount
        guard i + n <= bytes.count else { return false }
        return s.withUTF8Buffer { bytes[i..<(i + n)].elementsEqual($0) }
    }

    private mutating func expect(_ s: Unicode.Scalar, _ message: String) throws(TOMLSyntaxError) {
        guard peek() == UInt8(ascii: s) else { throw error(at: i, message) }
        i += 1
    }

    private mutating func skipSpaces() {
        while let c = peek(), c == 0x20 || c == 0x09 { i += 1 }
    }

    private mutating func skipOneNewline() {
        if peek() == 0x0A { i += 1 } else if looking(at: "\r\n") { i += 2 }
    }

    private mutating func comment() throws(TOMLSyntaxError) {
        guard peek() == UInt8(ascii: "#") else { return }
        i += 1
        while let c = peek(), c != 0x0A, !looking(at: "\r\n") {
            try refuseControl(c, in: "a comment")
            i += 1
        }
    }

    /// Spaces, comments and line breaks (inside an array).
    private mutating func skipBlank() throws(TOMLSyntaxError) {
        while true {
            skipSpaces()
            try comment()
            if peek() == 0x0A { i += 1 } else if looking(at: "\r\n") { i += 2 } else { return }
        }
    }

    /// After a key/value or a header: spaces, a comment, then a line break or the end.
    private mutating func endOfLine() throws(TOMLSyntaxError) {
        skipSpaces()
        try comment()
        if peek() == nil { return }
        if peek() == 0x0A { i += 1; return }
        if looking(at: "\r\n") { i += 2; return }
        throw error(at: i, "expected the end of the line")
    }

    private func error(at position: Int, _ message: String) -> TOMLSyntaxError {
        let p = min(position, bytes.count)
        let lineStart = bytes[..<p].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        let line = 1 + bytes[..<p].reduce(0) { $1 == 0x0A ? $0 + 1 : $0 }
        // The column counts characters, not bytes.
        let column = 1 + bytes[lineStart..<p].reduce(0) { $1 & 0xC0 == 0x80 ? $0 : $0 + 1 }
        return TOMLSyntaxError(line: line, column: column, message: message)
    }

    static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
}
