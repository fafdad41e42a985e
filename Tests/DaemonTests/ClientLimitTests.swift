import Foundation
import Glibc
import Testing

/// Clients cannot hold the door: a half-sent line times out, and a flood of
/// connects beyond max_clients is refused with a bounded number of log lines.
@Suite(.serialized) struct ClientLimitTests {
    private func sendRaw(_ c: Client, _ text: String) {
        _ = text.withCString { Glibc.send(c.fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
    }

    @Test func halfSentLinesTimeOutAndFreeTheirSlots() throws {
        let d = try DaemonHarness(config: "[socket]\nmax_clients = 2\nline_timeout = 0.3\n", replays: [])
        let stalled = [try d.connect(), try d.connect()]
        for c in stalled { sendRaw(c, #"{"status":"#) }
        // Each gets an error line, then the connection closes.
        for c in stalled {
            let reply = c.readJSON(timeout: 3)
            #expect((reply?["error"] as? String)?.contains("incomplete line") == true, "\(String(describing: reply))\n\(d.log)")
            #expect(c.readLine(timeout: 2) == nil)
        }
        #expect(d.log.contains("sent an incomplete line and no newline within 0.3 s"), "\(d.log)")
        let fresh = try d.connect()
        #expect(try fresh.command(#"{"status":true}"#)["status"] != nil)
    }

    @Test func aClientThatKeepsSendingWholeLinesStays() throws {
        let d = try DaemonHarness(config: "[socket]\nline_timeout = 0.3\n", replays: [])
        let c = try d.connect()
        for _ in 0..<4 {
            #expect(try c.command(#"{"status":true}"#)["status"] != nil)
            usleep(200_000)
        }
        #expect(!d.log.contains("incomplete line"))
    }

    @Test func refusalsAreLoggedOncePerBurstWithACount() throws {
        let d = try DaemonHarness(config: "[socket]\nmax_clients = 1\n", replays: [])
        let holder = try d.connect()
        #expect(try holder.command(#"{"status":true}"#)["status"] != nil)
        var refused = 0
        for _ in 0..<300 {
            if let c = try? d.connect(), c.readJSON(timeout: 2)?["error"] != nil { refused += 1 }
        }
        #expect(refused == 300)
        // The holder is still served during and after the flood.
        #expect(try holder.command(#"{"status":true}"#)["status"] != nil)
        let deadline = Date().addingTimeInterval(4)
        var lines: [Substring] = []
        while Date() < deadline {
            lines = d.log.split(separator: "\n").filter { $0.contains("refus") }
            let counted = lines.count > 1 ? lines.dropFirst().compactMap { $0.split(separator: "refused ").last?.split(separator: " ").first.flatMap { Int($0) } }.reduce(0, +) : 0
            if counted == 299 { break }
            usleep(100_000)
        }
        #expect(lines.first?.contains("refusing clients: 1 already connected") == true, "\(d.log)")
        let counts = lines.dropFirst().compactMap { $0.split(separator: "refused ").last?.split(separator: " ").first.flatMap { Int($0) } }
        #expect(counts.reduce(0, +) == 299, "\(lines)")
        #expect(lines.count <= 6, "\(lines)")
    }
}
