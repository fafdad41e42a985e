import CLinux
import Evdev
import GestureKit
import Glibc
import Logging

/// swift-log to stderr in a form journald understands: a `<N>` syslog priority prefix per line,
/// and no timestamp when stderr is the journal (JOURNAL_STREAM set); a timestamp otherwise.
/// Lines of info level and above pass the log's rate limit (LogRateLimit) first.
public struct JournalLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    private let label: String
    private let journal: Bool
    private let rateLimit: Locked<LogRateLimit>

    /// The daemon's one limit: every logger's handler shares it, whatever its label.
    public static let rateLimit = Locked(LogRateLimit())

    public init(label: String, environment: [String: String] = ProcessEnvironment.current,
                rateLimit: Locked<LogRateLimit> = Self.rateLimit) {
        self.label = label
        self.journal = environment["JOURNAL_STREAM"] != nil
        self.rateLimit = rateLimit
    }

    /// Asks the rate limit for a line from `file`:`line`; writes the count of the site's lines
    /// it held back before this one. False: the line is not written.
    private func admit(_ level: Logger.Level, file: String, line: UInt) -> Bool {
        guard level >= .info else { return true }
        let site = LogRateLimit.Site(file: file, line: line)
        let now = MonotonicClock.now()
        switch rateLimit.withLock({ $0.admit(site, now: now) }) {
        case .suppress: return false
        case .write(let suppressed, let seconds):
            if suppressed > 0 { write(level, LogRateLimit.countLine(suppressed: suppressed, seconds: seconds)) }
            return true
        }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        guard admit(event.level, file: event.file, line: event.line) else { return }
        var message = event.message.description
        if !metadata.isEmpty || event.metadata.map({ !$0.isEmpty }) == true {
            var all = metadata
            if let m = event.metadata { all.merge(m) { $1 } }
            message += " " + all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        }
        write(event.level, message)
    }

    private func write(_ level: Logger.Level, _ message: String) {
        var message = message
        withPrefix(level) { prefix in
            message.withUTF8 { Self.withLines($0, prefix: prefix) { StandardStream.writeError($0) } }
        }
    }

    /// Writes what `body` writes (at most `capacity` bytes) as `log(event:)` writes a message
    /// of the same text without metadata, straight from bytes: no `Logger.Message`, `LogEvent`
    /// or existential handler. The two lines of every bound command's run come this way
    /// (speed: docs/architecture.md). `directLines`.
    /// The message is written after the prefix in one buffer, and split (`withLines`) only if
    /// it holds a newline.
    func log(level: Logger.Level, capacity: Int, file: String = #fileID, line: UInt = #line, _ body: (inout ByteWriter) -> Void) {
        guard level >= logLevel, admit(level, file: file, line: line) else { return }
        withPrefix(level) { prefix in
            var lines = false
            ByteWriter.withScratch(capacity: prefix.count + capacity + 1, { w in
                w.write(prefix)
                let start = w.cursor
                body(&w)
                lines = memchr(start, Int32(UInt8(ascii: "\n")), w.cursor - start) != nil
                w.write(byte: UInt8(ascii: "\n"))
            }) { line in
                guard lines else { return StandardStream.writeError(line) }
                let message = UnsafeBufferPointer(rebasing: line[prefix.count..<(line.count - 1)])
                Self.withLines(message, prefix: prefix) { StandardStream.writeError($0) }
            }
        }
    }

    /// This logger's handler, when lines can go to it as bytes (`log(level:capacity:_:)`): a
    /// JournalLogHandler with no metadata of its own.
    static func directLines(of logger: Logger) -> JournalLogHandler? {
        guard let h = logger.handler as? JournalLogHandler, h.metadata.isEmpty else { return nil }
        return h
    }

    /// The prefix on the stack: `<N>`, and the time when stderr is not the journal.
    private func withPrefix(_ level: Logger.Level, _ use: (UnsafeBufferPointer<UInt8>) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { prefix in
            var w = ByteWriter(prefix.baseAddress!, capacity: 16)
            w.write(byte: UInt8(ascii: "<"))
            w.write(byte: UInt8(ascii: "0") + UInt8(Self.priority(level)))
            w.write(byte: UInt8(ascii: ">"))
            if !journal {
                var now = timespec()
                clock_gettime(CLOCK_REALTIME, &now)
                Self.writeTimestamp(now, to: &w)
                w.write(byte: UInt8(ascii: " "))
            }
            use(UnsafeBufferPointer(rebasing: prefix[..<w.count(from: prefix.baseAddress!)]))
        }
    }

    static func lines(_ text: String, prefix: [UInt8]) -> [UInt8] {
        var text = text
        return prefix.withUnsafeBufferPointer { p in text.withUTF8 { withLines($0, prefix: p) { Array($0) } } }
    }

    /// Each line of `text` after `prefix` and ended by a newline (journald takes a line as an
    /// entry; an empty line stays one), as bytes, each line copied whole into scratch memory
    /// sized first, not split by Character nor joined as Strings; a bound command's run logs
    /// two lines (speed: docs/architecture.md).
    static func withLines<R>(_ bytes: UnsafeBufferPointer<UInt8>, prefix: UnsafeBufferPointer<UInt8>, _ use: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let newline = UInt8(ascii: "\n")
        // Where each line ends: memchr, not a loop over the bytes (speed: docs/architecture.md).
        func nextBreak(after start: Int) -> Int? {
            guard start < bytes.count, let p = memchr(bytes.baseAddress! + start, Int32(newline), bytes.count - start) else { return nil }
            return UnsafePointer(p.assumingMemoryBound(to: UInt8.self)) - bytes.baseAddress!
        }
        var breaks = 0
        var at = nextBreak(after: 0)
        while let i = at {
            breaks += 1
            at = nextBreak(after: i + 1)
        }
        return ByteWriter.withScratch(capacity: (breaks + 1) * (prefix.count + 1) + bytes.count, { w in
            var start = 0
            while let i = nextBreak(after: start) {
                w.write(prefix)
                w.write(UnsafeBufferPointer(rebasing: bytes[start..<i]))
                w.write(byte: newline)
                start = i + 1
            }
            w.write(prefix)
            w.write(UnsafeBufferPointer(rebasing: bytes[start...]))
            w.write(byte: newline)
        }, use)
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

    /// The local wall-clock time of `ts` as HH:mm:ss.SSS (12 bytes). Digits written as bytes,
    /// not interpolated as zero-padded numbers (speed: docs/architecture.md).
    static func writeTimestamp(_ ts: timespec, to w: inout ByteWriter) {
        func digits(_ value: Int32, count: Int) {
            var v = value
            var i = count
            while i > 0 {
                i -= 1
                w.cursor[i] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: v % 10)
                v /= 10
            }
            w.skip(count)
        }
        let daySecond = localOffset.withLock { cache -> Int in
            let minute = ts.tv_sec / 60
            if cache.minute != minute {
                var seconds = ts.tv_sec
                var parts = tm()
                localtime_r(&seconds, &parts)
                let clock = (Int(parts.tm_hour) * 60 + Int(parts.tm_min)) * 60 + Int(parts.tm_sec)
                // A zone whose clock is not UTC plus its offset (leap seconds, "right/…") is asked every time.
                guard Self.secondOfDay(ts.tv_sec + parts.tm_gmtoff) == clock else {
                    cache.minute = -1
                    return clock
                }
                cache = (minute, parts.tm_gmtoff)
            }
            return Self.secondOfDay(ts.tv_sec + cache.offset)
        }
        digits(Int32(daySecond / 3600), count: 2)
        w.write(byte: UInt8(ascii: ":"))
        digits(Int32(daySecond / 60 % 60), count: 2)
        w.write(byte: UInt8(ascii: ":"))
        digits(Int32(daySecond % 60), count: 2)
        w.write(byte: UInt8(ascii: "."))
        digits(Int32(ts.tv_nsec / 1_000_000), count: 3)
    }

    /// The local time's offset from UTC in the last minute a line was stamped in: localtime_r
    /// runs once a minute, and so still at every change of offset (daylight saving time changes
    /// on a minute). Asked once a second, it ran for every bound command (commands come seconds
    /// apart; speed: docs/architecture.md).
    private static let localOffset = Locked<(minute: Int, offset: Int)>((-1, 0))

    /// Seconds since midnight of a time in seconds since the epoch (local when the offset is added).
    private static func secondOfDay(_ t: Int) -> Int { (t % 86_400 + 86_400) % 86_400 }
}
