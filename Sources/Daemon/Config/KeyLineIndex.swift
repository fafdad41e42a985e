/// Maps TOML key paths to the line they are written on.
///
/// The parser reports positions for syntax errors only, so semantic errors would have no line.
/// The headers and keys `TOMLScanner` yields are enough to find them again: `[table]`,
/// `[[array.of.tables]]` (numbering entries from 1, as errors show them), dotted and quoted keys.
struct KeyLineIndex {
    private var lines: [String: Int] = [:]
    private var arrayCounts: [String: Int] = [:]
    /// The table the keys that follow belong to.
    private var current: [String] = []

    /// A path with each array of tables it passes through numbered as its latest entry.
    private func numbered(_ comps: [String]) -> [String] {
        var path: [String] = []
        for c in comps {
            path.append(c)
            if let n = arrayCounts[path.joined(separator: ".")] { path[path.count - 1] = "\(c)[\(n)]" }
        }
        return path
    }

    mutating func add(_ item: TOMLScanner.Item, line: Int) {
        switch item {
        case .header(let comps, isArray: true):
            guard let last = comps.last else { return }
            var path = numbered(Array(comps.dropLast()))
            path.append(last)
            let key = path.joined(separator: ".")
            let n = (arrayCounts[key] ?? 0) + 1
            arrayCounts[key] = n
            path[path.count - 1] = "\(last)[\(n)]"
            current = path
            record(current, line)
        case .header(let comps, isArray: false):
            current = numbered(comps)
            record(current, line)
        case .key(let comps):
            record(current + comps, line)
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
}
