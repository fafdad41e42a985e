/// `libinput record` files (YAML, format version 1), read line by line for the parts gestured
/// needs. libinput writes one fixed layout, which this follows:
///
///     version: 1
///     devices:
///     - node: /dev/input/event4
///       evdev:
///         name: "ELAN Touchscreen"
///         id: [3, 1267, 4316, 272]            bus vendor product version
///         codes:
///           3: [0, 1, 47, 53, 54, 57]         type: [codes]
///         absinfo:
///           53: [0, 3264, 0, 0, 12]           code: [min, max, fuzz, flat, resolution]
///         properties: [1]
///       udev:
///         properties:
///         - ID_INPUT_TOUCHSCREEN=1
///       events:
///       - evdev:
///         - [  0,  1200,   3,  57,  14]       sec usec type code value
///
/// Only the first device is read (a multi-device recording needs one replay per device).
/// `libinput:` event entries (libinput's own interpretation) are skipped.
struct LibinputRecordParser {
    let file: String
    private var stack: [(indent: Int, key: String)] = []
    private var deviceIndex = 0
    private var version: Int?
    private var name: String?
    private var ids: [Int]?
    private var caps = DeviceCapabilities()
    private var udev: [String: String] = [:]
    private var devnode: String?
    private var events: [InputEvent] = []

    init(file: String) { self.file = file }

    /// libinput's layout nests 5 levels deep; more is not a libinput recording.
    static let maxNesting = 16

    static func looksLikeYAML(_ text: String) -> Bool {
        for line in TextFile.lines(text).prefix(40) {
            if line.hasPrefix("version:") || line.hasPrefix("libinput:") || line.hasPrefix("devices:") { return true }
        }
        return false
    }

    private func fail(_ line: Int, _ message: String) -> RecordingError {
        RecordingError(file: file, line: line, message: message)
    }

    mutating func parse(_ text: String, id: String) throws(RecordingError) -> (DeviceInfo, [InputEvent]) {
        try TextFile.forEachLine(of: text, file: file) { raw, n throws(RecordingError) in try parseLine(raw, n) }
        guard let version else { throw fail(0, "no 'version:' line: not a libinput recording") }
        guard version == 1 else { throw fail(0, "unsupported libinput record version \(version) (1 is supported)") }
        guard deviceIndex >= 1, let name else { throw fail(0, "no device with an evdev name in 'devices:'") }
        guard let ids, ids.count == 4 else { throw fail(0, "device has no 'id: [bus, vendor, product, version]'") }
        func u16(_ v: Int) -> UInt16 { UInt16(truncatingIfNeeded: v) }
        let info = DeviceInfo(name: name, id: id, bus: u16(ids[0]), vendor: u16(ids[1]), product: u16(ids[2]),
                              version: u16(ids[3]), capabilities: caps, properties: udev, devnode: devnode)
        return (info, events)
    }

    private mutating func parseLine(_ raw: Substring, _ n: Int) throws(RecordingError) {
        var line = stripComment(raw)
        while line.last == " " || line.last == "\t" || line.last == "\r" { line = line.dropLast() }
        var content = line.drop(while: { $0 == " " })
        var indent = line.utf8.count - content.utf8.count
        if content.isEmpty || content == "---" || content == "..." { return }
        var isItem = false
        if content == "-" || content.hasPrefix("- ") {
            isItem = true
            content = content.dropFirst(content == "-" ? 1 : 2).drop(while: { $0 == " " })
            indent += 2
        }
        while let top = stack.last, top.indent >= indent { stack.removeLast() }
        guard stack.count < Self.maxNesting else { throw fail(n, "nested deeper than \(Self.maxNesting) levels (the limit)") }
        let path = stack.map(\.key)
        if let (key, value) = keyValue(content) {
            if isItem && key == "node" && path == ["devices"] {
                deviceIndex += 1
                if deviceIndex == 1 { devnode = unquote(value) }
            }
            if value.isEmpty { stack.append((indent, key)) }
            guard path.first == "devices" ? deviceIndex == 1 : true else { return }
            try handle(path: path, key: key, value: value, n)
        } else if isItem, path.first == "devices", deviceIndex == 1 {
            try handleItem(path: path, content, n)
        }
    }

    private mutating func handle(path: [String], key: String, value: Substring, _ n: Int) throws(RecordingError) {
        switch path {
        case []:
            if key == "version" {
                guard let v = Int(value) else { throw fail(n, "version \"\(value)\" is not a number") }
                version = v
            }
        case ["devices", "evdev"]:
            switch key {
            case "name": name = unquote(value)
            case "id": ids = try ints(value, n)
            case "properties": for p in try ints(value, n) { caps.properties.insert(UInt16(truncatingIfNeeded: p)) }
            default: break
            }
        case ["devices", "evdev", "codes"]:
            guard let type = UInt16(key), type <= 0x1f else { throw fail(n, "bad event type \"\(key)\" in codes") }
            caps.eventTypes.insert(type)
            for c in try ints(value, n) {
                guard c >= 0 && c <= 0x2ff else { throw fail(n, "event code \(c) out of range") }
                if type == EV.KEY { caps.keys.insert(UInt16(c)) }
                if type == EV.ABS && caps.axes[UInt16(c)] == nil { caps.axes[UInt16(c)] = AxisInfo(minimum: 0, maximum: 0) }
            }
        case ["devices", "evdev", "absinfo"]:
            guard let code = UInt16(key), code <= 0x3f else { throw fail(n, "bad axis code \"\(key)\" in absinfo") }
            let v = try ints(value, n)
            guard v.count == 5 || v.count == 4 else { throw fail(n, "absinfo needs [min, max, fuzz, flat, resolution]") }
            guard let a = Int32(exactly: v[0]), let b = Int32(exactly: v[1]), a <= b else {
                throw fail(n, "axis \(code): bad range \(v[0])…\(v[1])")
            }
            if code == ABS.MT_SLOT, b >= DeviceInfo.maxSlots {
                throw fail(n, "ABS_MT_SLOT maximum \(b): more than \(DeviceInfo.maxSlots) slots (the limit)")
            }
            caps.axes[code] = AxisInfo(minimum: a, maximum: b, fuzz: Int32(clamping: v[2]), flat: Int32(clamping: v[3]),
                                       resolution: v.count == 5 ? Int32(clamping: max(0, v[4])) : 0)
        default:
            break
        }
    }

    private mutating func handleItem(path: [String], _ content: Substring, _ n: Int) throws(RecordingError) {
        switch path {
        case ["devices", "udev", "properties"]:
            let text = unquote(content)
            if let eq = text.firstIndex(of: "=") {
                udev[String(text[..<eq])] = String(text[text.index(after: eq)...])
            }
        case ["devices", "events", "evdev"]:
            let v = try ints(content, n)
            guard v.count == 5 else { throw fail(n, "event needs [sec, usec, type, code, value], got \(v.count) numbers") }
            guard v[0] >= 0, v[1] >= 0, v[1] < 1_000_000 else { throw fail(n, "bad event time \(v[0]).\(v[1])") }
            guard Double(v[0]) <= Recording.maxEventTime else {
                throw fail(n, "event time \(v[0]) s is later than \(Int(Recording.maxEventTime)) s (the limit)")
            }
            guard let type = UInt16(exactly: v[2]), let code = UInt16(exactly: v[3]), let value = Int32(exactly: v[4]) else {
                throw fail(n, "event type, code or value out of range")
            }
            let e = InputEvent(time: Double(v[0]) + Double(v[1]) / 1_000_000, type: type, code: code, value: value)
            if let why = e.outOfRange { throw fail(n, why) }
            events.append(e)
        default:
            break
        }
    }

    /// "key: value" (plain keys only: a flow list or mapping is not a key).
    private func keyValue(_ s: Substring) -> (String, Substring)? {
        guard let first = s.first, first != "[", first != "{", first != "\"" else { return nil }
        guard let colon = s.firstIndex(of: ":") else { return nil }
        let after = s.index(after: colon)
        guard after == s.endIndex || s[after] == " " else { return nil }
        let key = s[..<colon]
        guard !key.contains(" ") else { return nil }
        return (String(key), s[after...].drop(while: { $0 == " " }))
    }

    /// "[1, 2, -3]" → [1, 2, -3].
    private func ints(_ s: Substring, _ n: Int) throws(RecordingError) -> [Int] {
        guard s.first == "[", s.last == "]" else { throw fail(n, "expected a list like [1, 2, 3], got \"\(s.prefix(40))\"") }
        var out: [Int] = []
        for part in s.dropFirst().dropLast().split(separator: ",") {
            let t = part.trimmingSpaces
            if t.isEmpty { continue }
            guard let v = Int(t) else { throw fail(n, "\"\(t)\" is not an integer") }
            out.append(v)
        }
        return out
    }

    private func unquote(_ s: Substring) -> String {
        guard s.count >= 2, let q = s.first, q == "\"" || q == "'", s.last == q else { return String(s) }
        var out = ""
        var escaped = false
        for ch in s.dropFirst().dropLast() {
            if escaped { out.append(ch); escaped = false } else if ch == "\\" && q == "\"" { escaped = true } else { out.append(ch) }
        }
        return out
    }

    /// Drops a `#` comment that is not inside quotes.
    private func stripComment(_ s: Substring) -> Substring {
        var quote: Character?
        var i = s.startIndex
        while i < s.endIndex {
            let ch = s[i]
            if let q = quote {
                if ch == q { quote = nil }
            } else if ch == "\"" || ch == "'" {
                quote = ch
            } else if ch == "#" && (i == s.startIndex || s[s.index(before: i)] == " ") {
                return s[..<i]
            }
            i = s.index(after: i)
        }
        return s
    }
}

extension Substring {
    var trimmingSpaces: Substring {
        var t = self
        while t.first == " " || t.first == "\t" { t = t.dropFirst() }
        while t.last == " " || t.last == "\t" { t = t.dropLast() }
        return t
    }
}
