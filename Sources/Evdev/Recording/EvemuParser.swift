/// The evemu text format (evemu-record / evemu-describe, format versions 1.0–1.3):
///
///     # EVEMU 1.3                         comment; the version is checked
///     N: name
///     I: bus vendor product version       hex
///     P: 8 hex bytes                      input properties, 8 bits per byte, lines accumulate
///     B: type + 8 hex bytes               event code bits for one type, lines accumulate
///     A: code min max fuzz flat [res]     code in hex, the rest decimal
///     L:, S:                              LED and switch state (ignored)
///     E: sec.usec type code value         type and code hex, value decimal (leading zeros allowed)
///
/// Anything after `#` is a comment. Events and description may be in one file or two.
struct EvemuParser {
    let file: String
    var name: String?
    var ids: (bus: UInt16, vendor: UInt16, product: UInt16, version: UInt16)?
    var caps = DeviceCapabilities()
    /// Bytes seen so far per event type (B: lines) and for properties (P: lines).
    var bitOffsets: [UInt16: Int] = [:]
    var propOffset = 0
    var events: [InputEvent] = []
    var hasDescription: Bool { name != nil || ids != nil || !caps.axes.isEmpty || !bitOffsets.isEmpty }

    init(file: String) { self.file = file }

    mutating func parse(_ text: String) throws(RecordingError) {
        try TextFile.forEachLine(of: text, file: file) { raw, n throws(RecordingError) in try parseLine(raw, n) }
    }

    private func fail(_ line: Int, _ message: String) -> RecordingError {
        RecordingError(file: file, line: line, message: message)
    }

    private mutating func parseLine(_ raw: Substring, _ n: Int) throws(RecordingError) {
        var line = raw
        if line.last == "\r" { line = line.dropLast() }
        let trimmed = line.drop(while: { $0 == " " || $0 == "\t" })
        if trimmed.isEmpty { return }
        if trimmed.first == "#" {
            try checkVersion(trimmed, n)
            return
        }
        guard trimmed.count >= 2, trimmed.dropFirst().first == ":", let tag = trimmed.first else {
            throw fail(n, "not an evemu line: \"\(trimmed.prefix(60))\"")
        }
        let body = trimmed.dropFirst(2)
        if tag == "N" {
            // The name is the rest of the line (it may contain '#').
            name = String(body.drop(while: { $0 == " " || $0 == "\t" }))
            return
        }
        let content = body.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? body
        let fields = content.split(whereSeparator: { $0 == " " || $0 == "\t" })
        switch tag {
        case "E": try parseEvent(fields, n)
        case "I": try parseIDs(fields, n)
        case "P": try parseProperties(fields, n)
        case "B": try parseBits(fields, n)
        case "A": try parseAxis(fields, n)
        case "L", "S": return
        default: throw fail(n, "unknown line type \"\(tag):\"")
        }
    }

    private func checkVersion(_ comment: Substring, _ n: Int) throws(RecordingError) {
        let words = comment.dropFirst().split(separator: " ")
        guard words.count >= 2, words[0] == "EVEMU" else { return }
        let v = words[1]
        let parts = v.split(separator: ".")
        guard parts.count == 2, let major = Int(parts[0]), let minor = Int(parts[1]) else {
            throw fail(n, "unreadable evemu version \"\(v)\"")
        }
        guard major == 1, minor <= 3 else {
            throw fail(n, "unsupported evemu format version \(v) (1.0–1.3 are supported)")
        }
    }

    private mutating func parseEvent(_ f: [Substring], _ n: Int) throws(RecordingError) {
        guard f.count == 4 else { throw fail(n, "event needs 4 fields (time type code value), got \(f.count)") }
        guard let time = parseTime(f[0]) else { throw fail(n, "bad event time \"\(f[0])\"") }
        guard time <= Recording.maxEventTime else {
            throw fail(n, "event time \(f[0]) is later than \(Int(Recording.maxEventTime)) s (the limit)")
        }
        guard let type = UInt16(f[1], radix: 16) else { throw fail(n, "bad event type \"\(f[1])\" (hex)") }
        guard let code = UInt16(f[2], radix: 16) else { throw fail(n, "bad event code \"\(f[2])\" (hex)") }
        guard let value = Int32(decimal: f[3]) else { throw fail(n, "bad event value \"\(f[3])\" (decimal)") }
        let e = InputEvent(time: time, type: type, code: code, value: value)
        if let why = e.outOfRange { throw fail(n, why) }
        events.append(e)
    }

    /// "sec.usec", microseconds as six digits (summed separately to keep precision).
    private func parseTime(_ s: Substring) -> Double? {
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let sec = UInt64(parts[0]), !parts[1].isEmpty, parts[1].count <= 9,
              let frac = UInt64(parts[1]) else { return nil }
        var scale = 1.0
        for _ in 0..<parts[1].count { scale *= 10 }
        return Double(sec) + Double(frac) / scale
    }

    private mutating func parseIDs(_ f: [Substring], _ n: Int) throws(RecordingError) {
        guard f.count == 4 else { throw fail(n, "I: needs bus vendor product version, got \(f.count) fields") }
        var v: [UInt16] = []
        for x in f {
            guard let h = UInt16(x, radix: 16) else { throw fail(n, "bad hex id \"\(x)\"") }
            v.append(h)
        }
        ids = (v[0], v[1], v[2], v[3])
    }

    private func hexBytes(_ f: ArraySlice<Substring>, _ n: Int) throws(RecordingError) -> [UInt8] {
        var out: [UInt8] = []
        for x in f {
            guard let b = UInt8(x, radix: 16) else { throw fail(n, "bad hex byte \"\(x)\"") }
            out.append(b)
        }
        return out
    }

    /// Bytes of bits one type (or the properties) may have: codes 0…0x2ff (KEY_MAX, the largest
    /// of any type), which is what evemu writes for EV_KEY.
    static let maxBitBytes = (0x2ff + 1) / 8

    private mutating func parseProperties(_ f: [Substring], _ n: Int) throws(RecordingError) {
        let bytes = try hexBytes(f[...], n)
        guard propOffset + bytes.count <= Self.maxBitBytes else {
            throw fail(n, "P: more than \(Self.maxBitBytes) bytes of properties (the limit)")
        }
        for (i, b) in bytes.enumerated() {
            for bit in 0..<8 where b & (1 << bit) != 0 {
                caps.properties.insert(UInt16((propOffset + i) * 8 + bit))
            }
        }
        propOffset += bytes.count
    }

    private mutating func parseBits(_ f: [Substring], _ n: Int) throws(RecordingError) {
        guard f.count >= 2, let type = UInt8(f[0], radix: 16) else { throw fail(n, "B: needs a type and bytes") }
        guard type <= 0x1f else { throw fail(n, "B: event type 0x\(String(type, radix: 16)) out of range") }
        let t = UInt16(type)
        let bytes = try hexBytes(f[1...], n)
        let offset = bitOffsets[t, default: 0]
        guard offset + bytes.count <= Self.maxBitBytes else {
            throw fail(n, "B: more than \(Self.maxBitBytes) bytes for event type \(type) (codes up to 0x2ff, the limit)")
        }
        for (i, b) in bytes.enumerated() {
            for bit in 0..<8 where b & (1 << bit) != 0 {
                let code = UInt16((offset + i) * 8 + bit)
                if t == 0 {
                    caps.eventTypes.insert(code)
                } else if t == EV.KEY {
                    caps.keys.insert(code)
                } else if t == EV.ABS && caps.axes[code] == nil {
                    // Declared without an A: line yet; the A: line fills it in.
                    caps.axes[code] = AxisInfo(minimum: 0, maximum: 0)
                }
            }
        }
        bitOffsets[t] = offset + bytes.count
    }

    private mutating func parseAxis(_ f: [Substring], _ n: Int) throws(RecordingError) {
        guard f.count == 5 || f.count == 6 else {
            throw fail(n, "A: needs code min max fuzz flat [resolution], got \(f.count) fields")
        }
        guard let code = UInt16(f[0], radix: 16), code <= 0x3f else { throw fail(n, "bad axis code \"\(f[0])\"") }
        var v: [Int32] = []
        for x in f[1...] {
            guard let d = Int32(decimal: x) else { throw fail(n, "bad axis value \"\(x)\"") }
            v.append(d)
        }
        guard v[0] <= v[1] else { throw fail(n, "axis 0x\(String(code, radix: 16)): min \(v[0]) > max \(v[1])") }
        if code == ABS.MT_SLOT, v[1] >= DeviceInfo.maxSlots {
            throw fail(n, "ABS_MT_SLOT maximum \(v[1]): more than \(DeviceInfo.maxSlots) slots (the limit)")
        }
        guard v.count < 5 || v[4] >= 0 else { throw fail(n, "axis 0x\(String(code, radix: 16)): negative resolution") }
        caps.axes[code] = AxisInfo(minimum: v[0], maximum: v[1], fuzz: v[2], flat: v[3], resolution: v.count > 4 ? v[4] : 0)
    }
}

extension Int32 {
    /// Decimal with optional sign and leading zeros ("0026", "-001"); never octal.
    init?(decimal s: Substring) {
        var rest = s
        var negative = false
        if rest.first == "-" || rest.first == "+" {
            negative = rest.first == "-"
            rest = rest.dropFirst()
        }
        guard !rest.isEmpty, rest.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        guard let v = Int64(rest), v <= Int64(Int32.max) + (negative ? 1 : 0) else { return nil }
        self = Int32(negative ? -v : v)
    }
}
