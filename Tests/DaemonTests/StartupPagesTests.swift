@testable import Daemon
import Glibc
import Testing

@Suite("start-up code pages released once ready")
struct StartupPagesTests {
    /// Resident KiB of this process's executable file mappings (smaps "Rss:" under r-xp headers).
    static func residentCodeKiB() -> Int {
        guard let bytes = FileSystem.contents(atPath: "/proc/self/smaps") else { return -1 }
        var code = false, total = 0
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let f = line.split(separator: " ", omittingEmptySubsequences: true)
            if f.count >= 6, f[0].contains("-") { code = f[1] == "r-xp" && f[5].hasPrefix("/") }
            else if code, f.first == "Rss:", f.count >= 2 { total += Int(f[1]) ?? 0 }
        }
        return total
    }

    @Test("the executable mappings' pages are unmapped, and the code still runs afterwards")
    func releasesAndRunsOn() {
        let before = Self.residentCodeKiB()
        let released = StartupPages.release()
        let after = Self.residentCodeKiB()
        #expect(released > 0)
        #expect(after < before, "resident code \(before) KiB before, \(after) KiB after")
        // Code faults back in on use: the process goes on working.
        #expect(Self.residentCodeKiB() > 0)
    }
}
