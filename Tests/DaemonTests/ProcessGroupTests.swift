import Foundation
import Glibc
import Testing

/// Everything a bound command starts is accounted for: its children, even ones it
/// put in the background, are killed with it at the timeout and when the daemon stops, and the
/// run counts against max_concurrent until the last of them has ended.
@Suite(.serialized) struct ProcessGroupTests {
    /// A shell that backgrounds two sleeps, writes their pids and exits at once.
    static func config(timeout: Double) -> String {
        DaemonProcessTests.baseConfig + """

            [[bind]]
            gesture = "circle"
            shell = "sleep 100 & echo $! >> $DIR/pids; sleep 100 & echo $! >> $DIR/pids"
            timeout = \(timeout)
            """
    }

    private func backgroundPids(_ d: DaemonHarness) throws -> [Int32] {
        let file = d.dir + "/pids"
        let deadline = Date().addingTimeInterval(5)
        var pids: [Int32] = []
        while Date() < deadline {
            let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
            pids = text.split(separator: "\n").compactMap { Int32($0) }
            if pids.count == 2 { break }
            usleep(20_000)
        }
        #expect(pids.count == 2, "log:\n\(d.log)")
        return pids
    }

    private func waitGone(_ pids: [Int32], within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while pids.contains(where: { kill($0, 0) == 0 }) && Date() < deadline { usleep(20_000) }
        return !pids.contains(where: { kill($0, 0) == 0 })
    }

    @Test func backgroundedChildrenDieAtTheTimeout() throws {
        let d = try DaemonHarness(config: Self.config(timeout: 0.5), replays: [DaemonHarness.circleRecording])
        let c = try d.connect()
        try d.replayAndWait(c)
        let pids = try backgroundPids(d)
        defer { for p in pids { kill(p, SIGKILL) } }
        // The shell exited at once, but the run lasts while its group does.
        #expect(try c.command(#"{"status":true}"#)["status"].flatMap { ($0 as? [String: Any])?["running_commands"] as? Int } == 1)
        #expect(waitGone(pids, within: 5), "background children outlived the timeout; log:\n\(d.log)")
        #expect(d.log.contains("ran past its timeout"), "\(d.log)")
        let status = try c.command(#"{"status":true}"#)["status"] as? [String: Any]
        #expect(status?["running_commands"] as? Int == 0, "\(String(describing: status))")
    }

    @Test func maxConcurrentCountsTheGroup() throws {
        let d = try DaemonHarness(config: Self.config(timeout: 60), replays: [DaemonHarness.circleRecording])
        let c = try d.connect()
        try d.replayAndWait(c)
        let pids = try backgroundPids(d)
        defer { for p in pids { kill(p, SIGKILL) } }
        try d.replayAndWait(c)
        let deadline = Date().addingTimeInterval(3)
        while !d.log.contains("still going (max_concurrent 1)") && Date() < deadline { usleep(20_000) }
        #expect(d.log.contains("still going (max_concurrent 1)"), "\(d.log)")
    }

    @Test func daemonSigtermStopsRunningCommands() throws {
        let d = try DaemonHarness(config: Self.config(timeout: 60), replays: [DaemonHarness.circleRecording])
        let c = try d.connect()
        try d.replayAndWait(c)
        let pids = try backgroundPids(d)
        defer { for p in pids { kill(p, SIGKILL) } }
        d.signal(SIGTERM)
        #expect(d.waitForExit(timeout: 5) == 0, "log:\n\(d.log)")
        #expect(waitGone(pids, within: 2), "commands outlived the daemon; log:\n\(d.log)")
        #expect(d.log.contains("stopping 1 running command(s)"), "\(d.log)")
    }
}
