@testable import Daemon
import Testing

/// The log's lines as journald reads them: every line of a message carries the priority prefix.
@Suite struct JournalLogHandlerTests {
    @Test func everyLineOfAMessageGetsThePrefixEmptyOnesIncluded() {
        #expect(JournalLogHandler.lines("binding 1: started /bin/true", prefix: "<6>") == "<6>binding 1: started /bin/true\n")
        #expect(JournalLogHandler.lines("config:\n\n  bad key é", prefix: "<3>") == "<3>config:\n<3>\n<3>  bad key é\n")
        #expect(JournalLogHandler.lines("", prefix: "<6>") == "<6>\n")
        #expect(JournalLogHandler.lines("ends\n", prefix: "<4>") == "<4>ends\n<4>\n")
    }
}
