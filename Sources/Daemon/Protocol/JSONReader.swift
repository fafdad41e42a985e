/// A JSON value as read by `JSONReader`.
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    /// Keys are unique: the reader rejects an object that repeats one.
    case object([String: JSONValue])

    public var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    public var bool: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    public var number: Double? {
        if case .number(let x) = self { return x }
        return nil
    }

    /// The number when it is a whole number an Int holds exactly (3 and 3.0, not 3.5).
    public var int: Int? {
        guard case .number(let x) = self, x == x.rounded(), abs(x) < 9.0e15 else { return nil }
        return Int(x)
    }

    public var array: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    public var object: [String: JSONValue]? {
        if case .object(let o) = self { return o }
        return nil
    }

    /// An array whose elements are all strings, else nil.
    public var strings: [String]? {
        guard case .array(let a) = self else { return nil }
        var out: [String] = []
        out.reserveCapacity(a.count)
        for e in a {
            guard case .string(let s) = e else { return nil }
            out.append(s)
        }
        return out
    }

    /// `value["key"]`: the member of an object, nil for a missing key or a non-object.
    public subscript(key: String) -> JSONValue? {
        if case .object(let o) = self { return o[key] }
        return nil
    }
}

/// A strict JSON reader (RFC 8259), standard library only, the counterpart of `JSONWriter`:
/// the daemon reads one small JSON object per client line (`ClientCommand`) and `gestured
/// listen` reads the daemon's event lines; neither links Foundation (Package.swift says why).
///
/// Strict means: no comments, no trailing commas, no leading zeros or `+`, no unescaped control
/// characters in strings, no lone surrogates, no repeated keys, nothing after the value, and
/// nesting at most `maxDepth` deep (a hostile client cannot exhaust the stack). Every rejection
/// says what was wrong and where (line and column, counted in characters).
public struct JSONReader {
    public struct Error: Swift.Error, Equatable, CustomStringConvertible {
        public var line: Int
        public var column: Int
        public var message: String
        public var description: String { "line \(line), column \(column): \(message)" }
    }

    public static let defaultMaxDepth = 64

    /// Reads exactly one JSON value (any kind) from `text`, surrounded by optional whitespace.
    public static func parse(_ text: String, maxDepth: Int = defaultMaxDepth) throws(JSONReader.Error) -> JSONValue {
        var reader = JSONReader(bytes: Array(text.utf8), maxDepth: maxDepth)
        reader.skipWhitespace()
        let value = try reader.readValue(depth: 0)
        reader.skipWhitespace()
        if reader.position < reader.bytes.count { throw reader.error("unexpected \(reader.describeCurrent()) after the value") }
        return value
    }

    private let bytes: [UInt8]
    private let maxDepth: Int
    private var position = 0

    private init(bytes: [UInt8], maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    // MARK: values

    private mutating func readValue(depth: Int) throws(JSONReader.Error) -> JSONValue {
        guard position < bytes.count else { throw error("unexpected end of input, expected a value") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try readObject(depth: depth + 1)
        case UInt8(ascii: "["): return try readArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try readString())
        case UInt8(ascii: "t"): try readLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try readLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try readLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try readNumber())
        default: throw error("unexpected \(describeCurrent()), expected a value")
        }
    }

    private mutating func readObject(depth: Int) throws(JSONReader.Error) -> JSONValue {
        if depth > maxDepth { throw error("nesting deeper than \(maxDepth) levels") }
        position += 1  // {
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if peek(UInt8(ascii: "}")) {
            position += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard position < bytes.count else { throw error("unexpected end of input, expected a key") }
            guard bytes[position] == UInt8(ascii: "\"") else { throw error("unexpected \(describeCurrent()), expected a key in double quotes") }
            let keyStart = position
            let key = try readString()
            skipWhitespace()
            guard peek(UInt8(ascii: ":")) else { throw error(position < bytes.count ? "unexpected \(describeCurrent()), expected ':' after the key" : "unexpected end of input, expected ':'") }
            position += 1
            skipWhitespace()
            let value = try readValue(depth: depth)
            if members.updateValue(value, forKey: key) != nil {
                position = keyStart
                throw error("duplicate key \"\(key)\"")
            }
            skipWhitespace()
            guard position < bytes.count else { throw error("unexpected end of input, expected ',' or '}'") }
            switch bytes[position] {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"): position += 1; return .object(members)
            default: throw error("unexpected \(describeCurrent()), expected ',' or '}'")
            }
        }
    }

    private mutating func readArray(depth: Int) throws(JSONReader.Error) -> JSONValue {
        if depth > maxDepth { throw error("nesting deeper than \(maxDepth) levels") }
        position += 1  // [
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek(UInt8(ascii: "]")) {
            position += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try readValue(depth: depth))
            skipWhitespace()
            guard position < bytes.count else { throw error("unexpected end of input, expected ',' or ']'") }
            switch bytes[position] {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"): position += 1; return .array(elements)
            default: throw error("unexpected \(describeCurrent()), expected ',' or ']'")
            }
        }
    }

    private mutating func readLiteral(_ word: StaticString) throws(JSONReader.Error) {
        let start = position
        var matched = true
        word.withUTF8Buffer { w in
            for b in w {
                guard position < bytes.count, bytes[position] == b else { matched = false; return }
                position += 1
            }
        }
        if !matched {
            position = start
            throw error("unexpected \(describeCurrent()), expected a value")
        }
    }

    // MARK: numbers

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, checked here; the standard library then
    /// converts the validated text (correctly rounded).
    private mutating func readNumber() throws(JSONReader.Error) -> Double {
        let start = position
        if peek(UInt8(ascii: "-")) { position += 1 }
        guard position < bytes.count, isDigit(bytes[position]) else { throw error("a number needs a digit after '-'") }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
            if position < bytes.count, isDigit(bytes[position]) { throw error("numbers must not have leading zeros") }
        } else {
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        if peek(UInt8(ascii: ".")) {
            position += 1
            guard position < bytes.count, isDigit(bytes[position]) else { throw error("a number needs a digit after '.'") }
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            position += 1
            if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { position += 1 }
            guard position < bytes.count, isDigit(bytes[position]) else { throw error("a number needs a digit in its exponent") }
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        guard let x = Double(text), x.isFinite else {
            position = start
            throw error("number \(text) is out of range")
        }
        return x
    }

    private func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

    // MARK: strings

    private mutating func readString() throws(JSONReader.Error) -> String {
        position += 1  // opening quote
        var out: [UInt8] = []
        while true {
            guard position < bytes.count else { throw error("unterminated string") }
            let b = bytes[position]
            switch b {
            case UInt8(ascii: "\""):
                position += 1
                // The input came from a String (valid UTF-8) and escapes are encoded below, so
                // the bytes are valid UTF-8.
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                position += 1
                try readEscape(into: &out)
            case 0..<0x20:
                throw error("control character U+\(hex4(UInt32(b))) must be escaped in a string")
            default:
                out.append(b)
                position += 1
            }
        }
    }

    private mutating func readEscape(into out: inout [UInt8]) throws(JSONReader.Error) {
        guard position < bytes.count else { throw error("unterminated string") }
        let e = bytes[position]
        position += 1
        switch e {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"):
            let escapeStart = position - 2
            var scalar = try readHex4()
            if (0xD800...0xDBFF).contains(scalar) {
                // A high surrogate must be followed by an escaped low one: together one scalar.
                guard peek(UInt8(ascii: "\\")), position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "u") else {
                    position = escapeStart
                    throw error("lone surrogate \\u\(hex4(scalar)) (a high surrogate needs a low one after it)")
                }
                position += 2
                let low = try readHex4()
                guard (0xDC00...0xDFFF).contains(low) else {
                    position = escapeStart
                    throw error("\\u\(hex4(scalar)) is followed by \\u\(hex4(low)), not by a low surrogate")
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                position = escapeStart
                throw error("lone surrogate \\u\(hex4(scalar)) (a low surrogate without a high one)")
            }
            guard let u = Unicode.Scalar(scalar) else {
                position = escapeStart
                throw error("\\u\(hex4(scalar)) is not a Unicode scalar")
            }
            UTF8.encode(u) { out.append($0) }
        default:
            position -= 2
            throw error("unknown escape \\\(Unicode.Scalar(e)) (known: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)")
        }
    }

    private mutating func readHex4() throws(JSONReader.Error) -> UInt32 {
        var v: UInt32 = 0
        for _ in 0..<4 {
            guard position < bytes.count else { throw error("unterminated \\u escape: expected 4 hexadecimal digits") }
            let b = bytes[position]
            let d: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(b - UInt8(ascii: "A") + 10)
            default: throw error("\\u escape: expected 4 hexadecimal digits, found \(describeCurrent())")
            }
            v = v << 4 | d
            position += 1
        }
        return v
    }

    private func hex4(_ v: UInt32) -> String {
        let s = String(v, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - s.count)) + s
    }

    // MARK: helpers

    private func peek(_ b: UInt8) -> Bool { position < bytes.count && bytes[position] == b }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    /// The character at the current position, quoted, for messages: `'x'`, or "end of input".
    private func describeCurrent() -> String {
        guard position < bytes.count else { return "end of input" }
        // Decode the whole character (it may be several UTF-8 bytes).
        var end = position + 1
        while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
        let c = String(decoding: bytes[position..<end], as: UTF8.self)
        if let s = c.unicodeScalars.first, s.value < 0x20 { return "control character U+\(hex4(s.value))" }
        return "'\(c)'"
    }

    /// An error at the current position; line and column count characters, from 1.
    private func error(_ message: String) -> JSONReader.Error {
        var line = 1
        var column = 1
        var i = 0
        let end = min(position, bytes.count)
        while i < end {
            let b = bytes[i]
            if b == 0x0A {
                line += 1
                column = 1
            } else if b & 0xC0 != 0x80 {
                column += 1  // count a character at its first byte only
            }
            i += 1
        }
        return JSONReader.Error(line: line, column: column, message: message)
    }
}
