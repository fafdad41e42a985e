import Foundation
import Glibc
import Testing

/// Bound commands start on the spawner's thread: a command that cannot start is still reported
/// (file, reason) and leaves nothing counted as running; one that starts runs once per gesture.
@Suite(.serialized) struct CommandStartTests {
    @Test func aCommandThatCannotStartIsLoggedAndNotCountedAsRunning() throws {
        let config = """
            [[bind]]
            gesture = "circle"
            run = ["/nonexistent/gestured-test-command"]
            """
        let d = try DaemonHarness(config: config, replays: [DaemonHarness.circleRecording])
        let c = try d.connect()
        try d.replayAndWait(c)
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline, !d.log.contains("/nonexistent/gestured-test-command") { usleep(50_000) }
        #expect(d.log.contains("binding 1: spawn /nonexistent/gestured-test-command: No such file or directory"), "\(d.log)")
        #expect(!d.log.contains("started /nonexistent"), "\(d.log)")
        let status = try #require(c.command(#"{"status":true}"#)["status"] as? [String: Any])
        #expect(status["running_commands"] as? Int == 0, "\(status)")
    }

    @Test func aStartedCommandIsReportedWithItsPidAndReaped() throws {
        let config = """
            [[bind]]
            gesture = "circle"
            run = ["/bin/sh", "-c", "echo ran >> $DIR/ran"]
            """
        let d = try DaemonHarness(config: config, replays: [DaemonHarness.circleRecording])
        let c = try d.connect()
        try d.replayAndWait(c)
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline, !d.log.contains("exited with status 0") { usleep(50_000) }
        #expect(d.log.contains("binding 1: started /bin/sh (pid "), "\(d.log)")
        #expect(d.log.contains("exited with status 0"), "\(d.log)")
        let ran = (try? String(contentsOfFile: d.dir + "/ran", encoding: .utf8)) ?? ""
        #expect(ran == "ran\n")
        let status = try #require(c.command(#"{"status":true}"#)["status"] as? [String: Any])
        #expect(status["running_commands"] as? Int == 0, "\(status)")
    }
}
