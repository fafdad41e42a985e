import CLinux
import Glibc
import Logging

/// swift-log to stderr in a form journald understands: a `<N>` syslog priority prefix per line,
/// and no timestamp when stderr is the journal (JOURNAL_STREAM set); a timestamp otherwise.
public struct JournalLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    private let label: String
    private let journal: Bool

    public init(label: String, environment: [String: String] = ProcessEnvironment.current) {
        self.label = label
        self.journal = environment["JOURNAL_STREAM"] != nil
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var all = metadata
        if let m = event.metadata { all.merge(m) { $1 } }
        var message = event.message.description
        if !all.isEmpty { message += " " + all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ") }
        var prefix: [UInt8] = [UInt8(ascii: "<"), UInt8(ascii: "0") + UInt8(Self.priority(event.level)), UInt8(ascii: ">")]
        if !journal {
            prefix += Self.timestamp().utf8
            prefix.append(UInt8(ascii: " "))
        }
        StandardStream.writeError(Self.lines(message, prefix: prefix))
    }

    /// Each line of `text` after `prefix` and ended by a newline (journald takes a line as an
    /// entry; an empty line stays one), as bytes, each line copied whole: splitting the String
    /// by Character walked grapheme clusters, ~34,000 instructions for a one-line message of 70
    /// characters, joining Strings cost ~4,000 and appending byte by byte ~3,700 (host callgrind,
    /// 2026-11-26); a bound command's run logs two lines.
    static func lines(_ text: String, prefix: [UInt8]) -> [UInt8] {
        var text = text
        return text.withUTF8 { bytes in
            let newline = UInt8(ascii: "\n")
            var out = prefix
            out.reserveCapacity(prefix.count + bytes.count + 1)
            var start = 0
            for i in bytes.indices where bytes[i] == newline {
                out += UnsafeBufferPointer(rebasing: bytes[start..<i])
                out.append(newline)
                out += prefix
                start = i + 1
            }
            out += UnsafeBufferPointer(rebasing: bytes[start...])
            out.append(newline)
            return out
        }
    }

    static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    /// Local wall-clock time as HH:mm:ss.SSS.
    private static func timestamp() -> String {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        var seconds = ts.tv_sec
        var parts = tm()
        localtime_r(&seconds, &parts)
        // Digits written as bytes: the interpolations of zero-padded numbers cost ~2,700
        // instructions a line (host callgrind, 2026-11-26).
        return String(unsafeUninitializedCapacity: 12) { text in
            func digits(_ value: Int32, at start: Int, count: Int) {
                var v = value
                for i in (start..<start + count).reversed() {
                    text[i] = UInt8(ascii: "0") + UInt8(v % 10)
                    v /= 10
                }
            }
            digits(parts.tm_hour, at: 0, count: 2)
            text[2] = UInt8(ascii: ":")
            digits(parts.tm_min, at: 3, count: 2)
            text[5] = UInt8(ascii: ":")
            digits(parts.tm_sec, at: 6, count: 2)
            text[8] = UInt8(ascii: ".")
            digits(Int32(ts.tv_nsec / 1_000_000), at: 9, count: 3)
            return 12
        }
    }
}
