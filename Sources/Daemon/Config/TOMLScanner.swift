/// Just enough of TOML's lexical structure, in one pass over the bytes, for what must be known
/// before (and beside) the parser: strings (basic, literal, multi-line), comments, brackets,
/// where a key may start, and the keys and table headers themselves. `ConfigPrescan` bounds the
/// file with it and locates keys by line with the items it yields.
struct TOMLScanner {
    /// A table header, or a `key =` outside any array or inline table, as written (unquoted).
    enum Item {
        case header([String], isArray: Bool)
        case key([String])
    }

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
    /// The key or header name being read: its finished parts and the bytes of the current one.
    private var names: [String] = []
    private var name: [UInt8] = []
    private var headerIsArray = false

    /// Bytes now belong to a name an `Item` will carry (inline tables' keys are not items).
    private var collecting: Bool { inKey && nesting.isEmpty }

    private mutating func takeName() -> [String] {
        defer { names = []; name = [] }
        return names + [String(decoding: name, as: UTF8.self)]
    }

    /// Takes one byte; returns the header or key it completes.
    mutating func feed(_ b: UInt8) -> Item? {
        let dq = UInt8(ascii: "\""), sq = UInt8(ascii: "'")
        if b == dq || b == sq { run = run.byte == b ? (b, run.count + 1) : (b, 1) } else { run = (0, 0) }
        if nulZerosNeeded > 0 {
            if b == UInt8(ascii: "0") { nulZerosNeeded -= 1; sawNUL = nulZerosNeeded == 0; return nil }
            nulZerosNeeded = 0
        }
        if let q = quote {
            takeQuoted(b, in: q)
            return nil
        }
        if inComment {
            if b == 10 { inComment = false } else { return nil }
        }
        if b == UInt8(ascii: " ") || b == UInt8(ascii: "\t") || b == UInt8(ascii: "\r") {
            lastWasOpen = false
            return nil
        }
        if headerStart && takeHeaderStart(b) { return nil }
        let valueExpected = expectingArrayValue
        if b != 10 && b != UInt8(ascii: "#") { expectingArrayValue = false }  // line breaks and comments may come first
        var item: Item? = nil
        switch b {
        case 10:
            if nesting.isEmpty { inKey = true; keyParts = 1; inHeader = false; names = []; name = [] }
            atLineStart = true
            return nil
        case UInt8(ascii: "#"):
            inComment = true
        case dq, sq:
            // `""` then a third quote opens a multi-line string; `""` alone is an empty string.
            if run.count == 3 { quote = b == dq ? .multiBasic : .multiLiteral; run = (0, 0) } else if run.count == 1 { quote = b == dq ? .basic : .literal }
            else if run.count == 2 { quote = nil }
        case UInt8(ascii: "["):
            open(b)
        case UInt8(ascii: "{"):
            nesting.append(b); inKey = true; keyParts = 1
        case UInt8(ascii: "]"), UInt8(ascii: "}"):
            item = close(b, valueExpected: valueExpected)
        case UInt8(ascii: ","):
            if nesting.last == UInt8(ascii: "{") { inKey = true; keyParts = 1 }
            if nesting.last == UInt8(ascii: "[") { expectingArrayValue = true }
        case UInt8(ascii: "="):
            if collecting && !inHeader { item = .key(takeName()) }
            inKey = false
        case UInt8(ascii: "."):
            if inKey { keyParts += 1 }
            if collecting { names.append(String(decoding: name, as: UTF8.self)); name = [] }
        default:
            if collecting { name.append(b) }
        }
        atLineStart = false
        return item
    }

    /// A `[` outside a string: a header at a line's start, an array elsewhere.
    private mutating func open(_ b: UInt8) {
        if atLineStart && nesting.isEmpty {
            inHeader = true; inKey = true; keyParts = 1; headerStart = true; lastWasOpen = true
            headerIsArray = false; names = []; name = []
        } else if !inHeader {
            nesting.append(b); inKey = false; expectingArrayValue = true
        }
    }

    /// A `]` or `}` outside a string: the header it completes, if it ends one.
    private mutating func close(_ b: UInt8, valueExpected: Bool) -> Item? {
        if b == UInt8(ascii: "}") && valueExpected && nesting.last == UInt8(ascii: "[") { braceForArrayValue = true }
        if inHeader {
            inHeader = false; inKey = false
            return .header(takeName(), isArray: headerIsArray)
        }
        if !nesting.isEmpty { nesting.removeLast() }
        return nil
    }

    /// A byte inside a quoted string or key.
    private mutating func takeQuoted(_ b: UInt8, in q: Quote) {
        let dq = UInt8(ascii: "\""), sq = UInt8(ascii: "'"), backslash = UInt8(ascii: "\\")
        if escaped && (q == .basic || q == .multiBasic) && (b == UInt8(ascii: "u") || b == UInt8(ascii: "U")) {
            escaped = false
            nulZerosNeeded = b == UInt8(ascii: "u") ? 4 : 8
            return
        }
        let wasEscaped = escaped
        switch q {
        case .basic:
            if escaped { escaped = false } else if b == backslash { escaped = true } else if b == dq || b == 10 { quote = nil }
        case .literal:
            if b == sq || b == 10 { quote = nil }
        case .multiBasic:
            if escaped { escaped = false } else if b == backslash { escaped = true } else if b == dq && run.count == 3 { quote = nil; run = (0, 0) }
        case .multiLiteral:
            if b == sq && run.count == 3 { quote = nil; run = (0, 0) }
        }
        if quote != nil, collecting, !escaped || wasEscaped { name.append(b) }  // a quoted key's bytes
    }

    /// The first byte after a header's `[`: a second `[` (true: taken), or the name's first byte,
    /// which must be one a name starts with.
    private mutating func takeHeaderStart(_ b: UInt8) -> Bool {
        let dq = UInt8(ascii: "\""), sq = UInt8(ascii: "'")
        if b == UInt8(ascii: "[") && lastWasOpen { lastWasOpen = false; headerIsArray = true; return true }  // [[
        headerStart = false
        lastWasOpen = false
        let c = Character(Unicode.Scalar(b))
        let named = c.isASCII && (c.isLetter || c.isNumber || c == "_" || c == "-") || b == dq || b == sq || c == "]"
        if !named { badHeader = true }
        return false
    }
}
