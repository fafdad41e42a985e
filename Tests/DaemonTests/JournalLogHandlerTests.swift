@testable import Daemon
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
}
