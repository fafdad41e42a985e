import Foundation
import Glibc
import Testing

/// A real one-finger circle (Wacom ISDv4) through the daemon with every default recognizer: the
/// socket client sees the provisional pan begin and then `cancelled` before the circle, and a
/// binding on pan (which fires on `ended` by default) does not run; the circle's does.
@Suite(.serialized) struct ProvisionalPanBindingTests {
    @Test func aCircleCancelsItsProvisionalPanAndOnlyTheCircleBindingRuns() throws {
        let config = """
            [[bind]]
            gesture = "pan"
            run = ["/bin/sh", "-c", "echo pan >> $DIR/ran"]

            [[bind]]
            gesture = "circle"
            run = ["/bin/sh", "-c", "echo circle >> $DIR/ran"]
            """
        let d = try DaemonHarness(config: config, replays: [DaemonHarness.circleRecording])
        let c = try d.connect()
        try d.replayAndWait(c)
        let events = c.collectEvents(for: 1.0)
        let seen = events.map { "\($0["gesture"] as? String ?? "").\($0["phase"] as? String ?? "")" }
        let circle = try #require(seen.firstIndex(of: "circle.recognized"), "\(seen)\n\(d.log)")
        #expect(seen.contains("pan.began"), "\(seen)")
        let cancelled = try #require(seen.firstIndex(of: "pan.cancelled"), "\(seen)")
        #expect(cancelled < circle)
        #expect(!seen.contains("pan.ended"))

        var ran: [Substring] = []
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            ran = ((try? String(contentsOfFile: d.dir + "/ran", encoding: .utf8)) ?? "").split(separator: "\n")
            if !ran.isEmpty { break }
            usleep(50_000)
        }
        usleep(300_000)  // a pan command, if one were wrongly started, has had time to write
        ran = ((try? String(contentsOfFile: d.dir + "/ran", encoding: .utf8)) ?? "").split(separator: "\n")
        #expect(ran == ["circle"], "\(d.log)")
    }
}
