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

    /// A client that floods the socket for `seconds` — blank lines or commands, reconnecting
    /// whenever it is dropped — while another asks for status every 0.2 s: the other is answered
    /// each time within a second, and only the flooder loses its connection.
    private func flood(_ payload: String, seconds: Double) throws {
        let d = try DaemonHarness(config: "", replays: [])
        let flooder = Process()
        flooder.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        flooder.arguments = ["-c", """
            import socket, sys, time
            path, payload, end = sys.argv[1], sys.argv[2].encode() * 4096, time.time() + float(sys.argv[3])
            drops = 0
            while time.time() < end:
                s = socket.socket(socket.AF_UNIX); s.settimeout(0.5)
                try:
                    s.connect(path)
                    while time.time() < end: s.sendall(payload)
                except OSError:
                    drops += 1
                s.close()
            print(drops)
            """, d.socketPath, payload, String(seconds)]
        let out = Pipe()
        flooder.standardOutput = out
        try flooder.run()
        usleep(300_000)
        let app = try d.connect()
        var slowest = 0.0
        var answered = 0, asked = 0
        let end = Date().addingTimeInterval(seconds - 0.5)
        while Date() < end {
            let start = Date()
            asked += 1
            if (try? app.command(#"{"status":true}"#))?["status"] != nil { answered += 1 }
            slowest = max(slowest, Date().timeIntervalSince(start))
            usleep(200_000)
        }
        flooder.waitUntilExit()
        let drops = Int(String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        #expect(answered == asked && asked >= Int(seconds * 3), "answered \(answered) of \(asked)\n\(d.log.suffix(2000))")
        #expect(slowest < 1, "slowest status reply \(slowest) s while flooded with \(payload.debugDescription)")
        #expect(drops >= 1, "the flooder was never dropped")
        #expect(d.log.contains("lines in a second (lines_per_second)"), "\(d.log.suffix(2000))")
        #expect(d.process.isRunning)
    }

    @Test func aFloodOfBlankLinesStallsOnlyTheFlooder() throws { try flood("\n", seconds: 8) }

    @Test func aFloodOfCommandsStallsOnlyTheFlooder() throws { try flood(#"{"status":true}"# + "\n", seconds: 8) }

    /// One user's clients hold at most max_clients_per_user slots; root is not limited.
    @Test func oneUserHoldsAtMostItsShareOfTheSlots() throws {
        let d = try DaemonHarness(config: "[socket]\nmode = \"0666\"\nmax_clients_per_user = 3\n", replays: [])
        let script = """
            import json, socket, sys
            held, replies = [], []
            for _ in range(5):
                s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); f = s.makefile("r")
                try:
                    s.sendall(b'{"status":true}\\n')
                except BrokenPipeError:
                    pass  # refused: the daemon said why and closed before the request
                replies.append(json.loads(f.readline())); held.append((s, f))
            print(json.dumps(replies))
            """
        let r = try SystemdTests.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c", script, d.socketPath])
        let replies = (try? JSONSerialization.jsonObject(with: Data(r.output.utf8))) as? [[String: Any]] ?? []
        try #require(replies.count == 5, "\(r.output)\n\(d.log)")
        #expect(replies.prefix(3).allSatisfy { $0["status"] != nil }, "\(replies)")
        #expect(replies.suffix(2).allSatisfy { ($0["error"] as? String)?.contains("too many clients of uid 65534 (limit 3") == true }, "\(replies)")
        let roots = try (0..<5).map { _ in try d.connect() }
        for c in roots { #expect(try c.command(#"{"status":true}"#)["status"] != nil) }
    }
}
