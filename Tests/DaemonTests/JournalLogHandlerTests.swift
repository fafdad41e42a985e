@testable import Daemon
import Glibc
import Testing

/// The log's lines as journald reads them: every line of a message carries the priority prefix.
@Suite struct JournalLogHandlerTests {
    func lines(_ text: String, prefix: String) -> String {
        String(decoding: JournalLogHandler.lines(text, prefix: Array(prefix.utf8)), as: UTF8.self)
    }

    @Test func everyLineOfAMessageGetsThePrefixEmptyOnesIncluded() {
        #expect(lines("binding 1: started /bin/true", prefix: "<6>") == "<6>binding 1: started /bin/true\n")
        #expect(lines("config:\n\n  bad key é", prefix: "<3>12:00:00.000 ") == "<3>12:00:00.000 config:\n<3>12:00:00.000 \n<3>12:00:00.000   bad key é\n")
        #expect(lines("", prefix: "<6>") == "<6>\n")
        #expect(lines("ends\n", prefix: "<4>") == "<4>ends\n<4>\n")
    }

    /// The stamp keeps the local offset of the minute it last asked for (localtime_r once a
    /// minute): across a change of offset it must still read as localtime_r does, in the same
    /// minute before and after the change and at the change itself.
    @Test func timestampsReadAsLocaltimeAcrossDaylightSavingChanges() {
        // Central European time by its POSIX rule (no zone files needed); summer time starts
        // 2026-03-29 01:00 UTC and ends 2026-10-25 01:00 UTC.
        setenv("TZ", "CET-1CEST,M3.5.0,M10.5.0/3", 1)
        tzset()
        defer {
            unsetenv("TZ")
            tzset()
        }
        func two(_ v: Int32) -> String { (v < 10 ? "0" : "") + String(v) }
        for change in [1_774_746_000, 1_792_890_000] {
            for t in [change - 3_601, change - 61, change - 59, change - 1, change, change + 1, change + 59, change + 60, change + 3_600] {
                var ts = timespec()
                ts.tv_sec = t
                ts.tv_nsec = 7_000_000
                let stamp = ByteWriter.string(capacity: 16) { JournalLogHandler.writeTimestamp(ts, to: &$0) }
                var seconds = t
                var parts = tm()
                localtime_r(&seconds, &parts)
                #expect(stamp == "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).007", "at \(t)")
            }
        }
    }
}
