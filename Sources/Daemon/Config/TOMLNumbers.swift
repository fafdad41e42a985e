/// TOML's number and date tokens, checked against the spec's grammar before Swift converts them:
/// underscores only between digits, no leading zeros, a float's point between digits.
enum TOMLNumbers {
    enum Number: Equatable { case integer(Int), float(Double), outOfRange }

    static func number(_ t: [UInt8]) -> Number? {
        if t.count > 2, t[0] == UInt8(ascii: "0"), let radix = radix(t[1]) {
            let digits = Array(t[2...])
            guard digitRun(digits, radix: radix) else { return nil }
            guard let n = Int(String(decoding: digits.filter { $0 != 0x5F }, as: UTF8.self), radix: radix) else { return .outOfRange }
            return .integer(n)
        }
        var body = t[...]
        if let s = body.first, s == UInt8(ascii: "+") || s == UInt8(ascii: "-") { body = body.dropFirst() }
        let exponentAt = body.firstIndex { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
        let mantissa = body[..<(exponentAt ?? body.endIndex)]
        let pointAt = mantissa.firstIndex(of: UInt8(ascii: "."))
        let whole = Array(mantissa[..<(pointAt ?? mantissa.endIndex)])
        guard digitRun(whole, radix: 10), whole.count == 1 || whole[0] != UInt8(ascii: "0") else { return nil }
        if let p = pointAt, !digitRun(Array(mantissa[(p + 1)...]), radix: 10) { return nil }
        if let e = exponentAt {
            var exponent = body[(e + 1)...]
            if let s = exponent.first, s == UInt8(ascii: "+") || s == UInt8(ascii: "-") { exponent = exponent.dropFirst() }
            guard digitRun(Array(exponent), radix: 10) else { return nil }
        }
        let clean = String(decoding: t.filter { $0 != 0x5F }, as: UTF8.self)
        if pointAt == nil && exponentAt == nil {
            guard let n = Int(clean) else { return .outOfRange }
            return .integer(n)
        }
        return Double(clean).map { .float($0) }
    }

    private static func radix(_ c: UInt8) -> Int? {
        switch c {
        case UInt8(ascii: "x"): 16
        case UInt8(ascii: "o"): 8
        case UInt8(ascii: "b"): 2
        default: nil
        }
    }

    /// Digits of `radix`, an underscore only between two of them.
    private static func digitRun(_ d: [UInt8], radix: Int) -> Bool {
        guard let first = d.first, let last = d.last, first != 0x5F, last != 0x5F else { return false }
        var previousUnderscore = false
        for c in d {
            if c == 0x5F {
                if previousUnderscore { return false }
                previousUnderscore = true
                continue
            }
            previousUnderscore = false
            guard let v = Int(String(Unicode.Scalar(c)), radix: 16), v < radix else { return false }
        }
        return true
    }

    /// `1979-05-27`, `07:32:00`, `1979-05-27T07:32:00.999-07:00` and the spec's other forms.
    static func dateTimeKind(_ t: [UInt8]) -> TOMLDateTimeKind? {
        let isDate = t.count >= 10 && matches(t[0..<10], "dddd-dd-dd")
        if isDate && t.count == 10 { return .date }
        let timeStart = isDate ? 11 : 0
        if isDate {
            guard t.count > 11, [UInt8(ascii: "T"), UInt8(ascii: "t"), UInt8(ascii: " ")].contains(t[10]) else { return nil }
        }
        guard t.count >= timeStart + 8, matches(t[timeStart..<(timeStart + 8)], "dd:dd:dd") else { return nil }
        var j = timeStart + 8
        if j < t.count, t[j] == UInt8(ascii: ".") {
            j += 1
            let s = j
            while j < t.count, TOMLParser.isDigit(t[j]) { j += 1 }
            guard j > s else { return nil }
        }
        if j == t.count { return isDate ? .dateTime : .time }
        guard isDate else { return nil }
        if t.count == j + 1, t[j] == UInt8(ascii: "Z") || t[j] == UInt8(ascii: "z") { return .dateTime }
        guard t.count == j + 6, t[j] == UInt8(ascii: "+") || t[j] == UInt8(ascii: "-"), matches(t[(j + 1)...], "dd:dd") else {
            return nil
        }
        return .dateTime
    }

    /// `pattern`: `d` a digit, anything else itself.
    private static func matches(_ s: ArraySlice<UInt8>, _ pattern: StaticString) -> Bool {
        guard s.count == pattern.utf8CodeUnitCount else { return false }
        return pattern.withUTF8Buffer { p in
            zip(s, p).allSatisfy { c, q in q == UInt8(ascii: "d") ? TOMLParser.isDigit(c) : c == q }
        }
    }
}
