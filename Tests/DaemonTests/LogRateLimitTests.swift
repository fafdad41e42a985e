@testable import Daemon
import Foundation
import Glibc
import Testing

/// The log's ceiling (LogRateLimit): each site's bucket, the shared one, the count of what was
/// held back; then the real daemon under a flood of socket clients.
struct LogRateLimitTests {
    let a = LogRateLimit.Site(file: "Daemon/A.swift", line: 1)
    let b = LogRateLimit.Site(file: "Daemon/B.swift", line: 2)

    @Test func aSiteWritesItsBurstThenItsRateAndCountsWhatItHeldBack() {
        var limit = LogRateLimit(site: .init(burst: 3, perSecond: 1), overall: .init(burst: 100, perSecond: 100))
        let first = (0..<10).map { _ in limit.admit(a, now: 10) }
        #expect(first.prefix(3).allSatisfy { $0 == .write(suppressed: 0, seconds: 0) })
        #expect(first.dropFirst(3).allSatisfy { $0 == .suppress })
        // Another site is not held back by the first one's flood.
        #expect(limit.admit(b, now: 10) == .write(suppressed: 0, seconds: 0))
        // Half a second: no token yet; one second after the flood began: one, with the count.
        #expect(limit.admit(a, now: 10.5) == .suppress)
        #expect(limit.admit(a, now: 11) == .write(suppressed: 8, seconds: 1))
        #expect(limit.admit(a, now: 11) == .suppress)
        // Quiet for long: the burst is back, whole, and no more.
        #expect(limit.admit(a, now: 100) == .write(suppressed: 1, seconds: 89))
        #expect((0..<5).map { _ in limit.admit(a, now: 100) }.filter { $0 != .suppress }.count == 2)
    }

    @Test func allSitesTogetherStayUnderTheOverallCeiling() {
        // 200 sites each logging 100 lines a second for 10 s.
        var limit = LogRateLimit()
        var written = 0
        var counts = 0
        for tick in 0..<1000 {
            let now = Double(tick) / 100
            for s in 0..<200 {
                if case .write(let suppressed, _) = limit.admit(LogRateLimit.Site(file: "F", line: UInt(s)), now: now) {
                    written += 1
                    if suppressed > 0 { counts += 1 }
                }
            }
        }
        let ceiling = Int(LogRateLimit.overall.burst + LogRateLimit.overall.perSecond * 10)
        #expect(written <= ceiling && written >= ceiling - 2, "\(written) lines written, ceiling \(ceiling)")
        #expect(counts <= written)
    }

    @Test func sitesPastTheTableShareTheOverallBucketOnly() {
        var limit = LogRateLimit(site: .init(burst: 1, perSecond: 0), overall: .init(burst: 3, perSecond: 0), maxSites: 1)
        #expect(limit.admit(a, now: 0) == .write(suppressed: 0, seconds: 0))
        #expect(limit.admit(a, now: 0) == .suppress)
        #expect(limit.admit(b, now: 0) == .write(suppressed: 0, seconds: 0))
        #expect(limit.admit(b, now: 0) == .write(suppressed: 0, seconds: 0))
        #expect(limit.admit(b, now: 0) == .suppress)
    }

    @Test func theCountLineSaysHowManyAndOverWhatTime() {
        #expect(LogRateLimit.countLine(suppressed: 1, seconds: 0.25) == "log rate limit: 1 line like the next not written in the last 0.3 s")
        #expect(LogRateLimit.countLine(suppressed: 412, seconds: 12) == "log rate limit: 412 lines like the next not written in the last 12 s")
    }

    /// 400 clients connecting and leaving as fast as they can would be 800 lines; the daemon
    /// writes at most each site's burst and rate, and says how many it held back.
    @Test func aFloodOfClientsGivesABoundedLog() throws {
        let d = try DaemonHarness(config: "[socket]\nmax_clients = 64\n", replays: [])
        let start = Date()
        for _ in 0..<400 {
            let c = try d.connect()
            _ = try c.command(#"{"status":true}"#)
        }
        // One more after a pause: a token is back, and its line carries the count.
        sleep(1)
        _ = try d.connect().command(#"{"status":true}"#)
        let elapsed = Date().timeIntervalSince(start)
        usleep(300_000)
        let lines = d.log.split(separator: "\n")
        let connected = lines.filter { $0.contains(" connected (") }.count
        let ceiling = Int(LogRateLimit.site.burst + LogRateLimit.site.perSecond * elapsed) + 1
        #expect(connected <= ceiling, "\(connected) 'connected' lines in \(elapsed) s, ceiling \(ceiling)")
        // A count line comes just before the next line of its site.
        var held = 0
        for (i, l) in lines.enumerated() where i + 1 < lines.count && lines[i + 1].contains(" connected (") {
            guard let r = l.range(of: "log rate limit: ") else { continue }
            held += Int(l[r.upperBound...].prefix { $0.isNumber }) ?? 0
        }
        #expect(held > 0, "no count line:\n\(d.log.suffix(3000))")
        // Nothing is dropped silently: every connect is written or counted.
        #expect(connected + held == 401, "\(connected) written, \(held) counted")
    }
}
