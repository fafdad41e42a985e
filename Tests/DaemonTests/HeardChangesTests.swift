import Foundation
import Glibc
import Testing

/// `changed` events are built only when someone hears them (GestureService.heardChanges): a
/// client that wants every gesture gets the provisional pan's `changed` events; with a client
/// subscribed to the circle alone and bindings on the pan's other phases, nobody hears them,
/// and the pan's `began` and `cancelled` still reach the bindings.
@Suite(.serialized) struct HeardChangesTests {
    static let config = """
        [[bind]]
        gesture = "pan"
        phase = "began"
        run = ["/bin/sh", "-c", "echo pan.began >> $DIR/ran"]

        [[bind]]
        gesture = "pan"
        phase = ["cancelled", "ended"]
        run = ["/bin/sh", "-c", "echo pan.$GESTURE_PHASE >> $DIR/ran"]

        [[bind]]
        gesture = "circle"
        run = ["/bin/sh", "-c", "echo circle >> $DIR/ran"]
        """

    @Test func aClientThatWantsEverythingGetsChangedEvents() throws {
        let d = try DaemonHarness(config: Self.config, replays: [DaemonHarness.circleRecording])
        let c = try d.connect()
        try d.replayAndWait(c)
        let seen = c.collectEvents(for: 1.0).map { "\($0["gesture"] as? String ?? "").\($0["phase"] as? String ?? "")" }
        #expect(seen.contains("pan.changed"), "\(seen)\n\(d.log)")
        #expect(seen.contains("pan.began") && seen.contains("pan.cancelled") && seen.contains("circle.recognized"), "\(seen)")
        #expect(Self.ran(d).sorted() == ["circle", "pan.began", "pan.cancelled"], "\(d.log)")
    }

    @Test func withNobodyHearingChangesBeganAndCancelledStillGoOut() throws {
        let d = try DaemonHarness(config: Self.config, replays: [DaemonHarness.circleRecording])
        let c = try d.connect()
        #expect(try c.command(#"{"subscribe":["circle"]}"#)["ok"] as? Bool != false)
        try d.replayAndWait(c)
        let seen = c.collectEvents(for: 1.0).map { "\($0["gesture"] as? String ?? "").\($0["phase"] as? String ?? "")" }
        #expect(seen == ["circle.recognized"], "\(seen)\n\(d.log)")
        #expect(Self.ran(d).sorted() == ["circle", "pan.began", "pan.cancelled"], "\(d.log)")
    }

    /// The lines the bound commands wrote, once three have (or after 5 s).
    static func ran(_ d: DaemonHarness) -> [Substring] {
        var ran: [Substring] = []
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            ran = ((try? String(contentsOfFile: d.dir + "/ran", encoding: .utf8)) ?? "").split(separator: "\n")
            if ran.count >= 3 { break }
            usleep(50_000)
        }
        usleep(300_000)  // a command that should not run has had time to write
        return ((try? String(contentsOfFile: d.dir + "/ran", encoding: .utf8)) ?? "").split(separator: "\n")
    }
}
