import GestureKit

/// What the relay (`gestured relay-command`, the daemon's child) asks of the command runner
/// (`gestured run-command`, an instance of gestured-commands@.service, another user): the
/// command's arguments and the gesture's variables. On the wire each is one record — a tag
/// byte (`a` an argument, `v` a variable), the text, a NUL — and an empty record ends the
/// request. NULs cannot occur inside an argument or a variable (they end C strings), so the
/// framing needs no escapes. After the request the relay sends `signal N` lines; the runner
/// answers `started PID`, then `exited STATUS` (the raw wait status) or `refused WHY`.
struct RunnerRequest: Equatable {
    var argv: [String]
    /// `GESTURE_NAME=value` entries (GestureEnvironment): only those; the runner refuses any
    /// other name, so no variable of the daemon's (LD_PRELOAD, CREDENTIALS_DIRECTORY) crosses.
    var variables: [String]

    /// Limits, each a refusal when passed: the whole request, the arguments, the variables.
    static let maxBytes = 131_072
    static let maxArguments = 1024
    static let maxVariables = GestureEnvironment.maxEntries
    static let variablePrefix = "GESTURE_"

    struct Refusal: Error, CustomStringConvertible {
        var description: String
    }

    func encoded() -> [UInt8] {
        var out: [UInt8] = []
        for a in argv { out.append(UInt8(ascii: "a")); out += a.utf8; out.append(0) }
        for v in variables { out.append(UInt8(ascii: "v")); out += v.utf8; out.append(0) }
        out.append(0)
        return out
    }

    /// The request at the start of `bytes`, with how many bytes it took; nil while it is
    /// incomplete (read more). Throws for what no relay sends.
    static func decode(_ bytes: [UInt8]) throws(Refusal) -> (request: RunnerRequest, length: Int)? {
        var request = RunnerRequest(argv: [], variables: [])
        var i = 0
        while i < bytes.count {
            if bytes[i] == 0 {
                guard !request.argv.isEmpty else { throw Refusal(description: "a request with no program") }
                return (request, i + 1)
            }
            guard let end = bytes[(i + 1)...].firstIndex(of: 0) else { break }
            let text = String(decoding: bytes[(i + 1)..<end], as: UTF8.self)
            switch bytes[i] {
            case UInt8(ascii: "a"):
                guard request.argv.count < maxArguments else { throw Refusal(description: "more than \(maxArguments) arguments") }
                guard request.argv.isEmpty ? !text.isEmpty : true else { throw Refusal(description: "an empty program name") }
                request.argv.append(text)
            case UInt8(ascii: "v"):
                guard request.variables.count < maxVariables else { throw Refusal(description: "more than \(maxVariables) variables") }
                guard Self.isGestureVariable(text) else {
                    throw Refusal(description: "variable \(Printable.escaping(String(text.prefix(40)))) is not a gesture's (\(variablePrefix)NAME=value)")
                }
                request.variables.append(text)
            default:
                throw Refusal(description: "a record tagged \(bytes[i]), neither an argument nor a variable")
            }
            i = end + 1
        }
        if bytes.count > maxBytes { throw Refusal(description: "a request over \(maxBytes) bytes") }
        return nil
    }

    /// `GESTURE_` + letters, digits and `_`, then `=`.
    static func isGestureVariable(_ entry: String) -> Bool {
        guard entry.hasPrefix(variablePrefix), let eq = entry.utf8.firstIndex(of: UInt8(ascii: "=")) else { return false }
        let name = entry.utf8[entry.utf8.index(entry.utf8.startIndex, offsetBy: variablePrefix.utf8.count)..<eq]
        return !name.isEmpty && name.allSatisfy { ($0 >= 0x41 && $0 <= 0x5a) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5f }
    }
}
