@testable import Daemon
import Testing

/// ByteWriter knows its end: what fits is written byte for byte, and in debug builds (where the
/// tests run) a write past the end stops the process instead of writing over what follows.
@Suite struct ByteWriterTests {
    @Test func writesWhatFitsAndCountsTheRoomLeft() {
        let text = ByteWriter.string(capacity: 12) { w in
            #expect(w.room == 12)
            w.write("ab" as StaticString)
            w.write("cd")
            w.write(byte: UInt8(ascii: "-"))
            w.write(42)
            w.write(1.5, places: 2)
            #expect(w.room == 2)
            w.writeCString("x\u{0}")
            #expect(w.room == 1)
        }
        #expect(text == "abcd-421.5x")
    }

    @Test func exactlyFullIsAllowed() {
        let bytes = ByteWriter.bytes(capacity: 3) { w in
            w.write("abc" as StaticString)
            #expect(w.room == 0)
        }
        #expect(bytes == Array("abc".utf8))
    }

    #if DEBUG && compiler(>=6.2)
    // Release builds trust the caller's sizing (as the daemon ships): the check is debug's.
    // Exit tests are Swift Testing 6.2's: Debian 13's Swift 6.0 builds without this one.
    @Test func aWritePastTheEndStopsADebugBuild() async {
        await #expect(processExitsWith: .failure) {
            _ = ByteWriter.string(capacity: 4) { w in w.write("hello" as StaticString) }
        }
        await #expect(processExitsWith: .failure) {
            _ = ByteWriter.bytes(capacity: 2) { w in w.write(12345) }
        }
        await #expect(processExitsWith: .failure) {
            _ = ByteWriter.string(capacity: 1) { w in
                w.write(byte: 1)
                w.write(byte: 2)
            }
        }
    }
    #endif
}
