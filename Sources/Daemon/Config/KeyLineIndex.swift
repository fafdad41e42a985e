import Evdev

/// Maps TOML key paths to the line they are written on.
///
/// TOMLKit reports positions for syntax errors only, so semantic errors would have no line.
/// A small scan of table headers and `key =` lines is enough to find them again: it follows
/// `[table]`, `[[array.of.tables]]` (numbering entries from 1, as errors show them), dotted and
/// quoted keys, and skips the insides of multi-line arrays and strings.
struct KeyLineIndex {
    private var lines: [String: Int] = [:]

    init(text: String) {
        var arrayCounts: [String: Int] = [:]
        var current: [String] = []
        var depth = 0  // open brackets of a multi-line value
        var inMultilineString: String? = nil

        func resolve(_ comps: [String]) -> [String] {
            var path: [String] = []
            for c in comps {
                path.append(c)
                if let n = arrayCounts[path.joined(separator: ".")] { path[path.count - 1] = "\(c)[\(n)]" }
            }
            return path
        }

        for (i, raw) in TextFile.lines(text).enumerated() {
            let lineNo = i + 1
            let line = raw.drop { $0 == " " || $0 == "\t" }
            if let delim = inMultilineString {
                if line.contains(delim) { inMultilineString = nil }
                continue
            }
            if depth > 0 {
                depth += Self.bracketBalance(line)
                continue
            }
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("[[") {
                guard let end = line.firstRange(of: "]]") else { continue }
                let comps = Self.splitKey(line[line.index(line.startIndex, offsetBy: 2)..<end.lowerBound])
                guard let last = comps.last else { continue }
                var path = resolve(Array(comps.dropLast()))
                path.append(last)
                let key = path.joined(separator: ".")
                let n = (arrayCounts[key] ?? 0) + 1
                arrayCounts[key] = n
                path[path.count - 1] = "\(last)[\(n)]"
                current = path
                record(current, lineNo)
            } else if line.hasPrefix("[") {
                guard let end = line.firstIndex(of: "]") else { continue }
                current = resolve(Self.splitKey(line[line.index(after: line.startIndex)..<end]))
                record(current, lineNo)
            } else if let eq = Self.assignment(line) {
                let keyPath = current + Self.splitKey(line[..<eq])
                record(keyPath, lineNo)
                let value = line[line.index(after: eq)...]
                for delim in ["\"\"\"", "'''"] {
                    if let r = value.firstRange(of: delim), !value[r.upperBound...].contains(delim) {
                        inMultilineString = delim
                    }
                }
                if inMultilineString == nil { depth = max(0, Self.bracketBalance(value)) }
            }
        }
    }

    private mutating func record(_ path: [String], _ line: Int) {
        // Intermediate tables of a dotted key start where they are first written.
        for n in 1...max(1, path.count) {
            let key = path.prefix(n).joined(separator: ".")
            if lines[key] == nil || n == path.count { lines[key] = line }
        }
    }

    /// The line of `path`, or of its nearest written ancestor (inline tables, defaults).
    func line(of path: String) -> Int? {
        var p = Substring(path)
        while !p.isEmpty {
            if let l = lines[String(p)] { return l }
            if p.hasSuffix("]"), let open = p.lastIndex(of: "[") {
                p = p[..<open]
            } else if let dot = p.lastIndex(of: ".") {
                p = p[..<dot]
            } else {
                break
            }
        }
        return nil
    }

    /// The `=` of a `key = value` line, outside quotes.
    private static func assignment(_ line: Substring) -> Substring.Index? {
        var quote: Character? = nil
        for i in line.indices {
            let c = line[i]
            if let q = quote {
                if c == q { quote = nil }
            } else if c == "\"" || c == "'" {
                quote = c
            } else if c == "=" {
                return i
            }
        }
        return nil
    }

    /// Splits `a."b.c".d` into its components, unquoting them.
    private static func splitKey(_ s: Substring) -> [String] {
        var comps: [String] = []
        var cur = ""
        var quote: Character? = nil
        for c in s {
            if let q = quote {
                if c == q { quote = nil } else { cur.append(c) }
            } else if c == "\"" || c == "'" {
                quote = c
            } else if c == "." {
                comps.append(cur)
                cur = ""
            } else if c != " " && c != "\t" {
                cur.append(c)
            }
        }
        comps.append(cur)
        return comps
    }

    /// Open minus closed brackets and braces outside strings and comments.
    private static func bracketBalance(_ s: Substring) -> Int {
        var balance = 0
        var quote: Character? = nil
        var escaped = false
        for c in s {
            if let q = quote {
                if escaped { escaped = false } else if c == "\\" && q == "\"" { escaped = true } else if c == q { quote = nil }
                continue
            }
            switch c {
            case "\"", "'": quote = c
            case "[", "{": balance += 1
            case "]", "}": balance -= 1
            case "#": return balance
            default: break
            }
        }
        return balance
    }
}
