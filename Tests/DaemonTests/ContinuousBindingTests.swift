import Foundation
import Glibc
import Testing

/// Continuous bindings on a real one-finger drag (N-Trig touchscreen, NW→SE): a command on
/// `began`, one per 10 mm of pan translation (`changed` steps), one on `ended`.
@Suite(.serialized) struct ContinuousBindingTests {
    @Test func panBindingsFireOnBeganEachStepAndEnded() throws {
        // Only pan runs (a plain drag would otherwise be claimed by swipe, as it should be).
        let config = """
            [defaults]
            recognizers = ["pan"]

            [[bind]]
            gesture = "pan"
            phase = ["began", "ended"]
            run = ["/bin/sh", "-c", "echo \\"$GESTURE_PHASE\\" >> $DIR/phases"]
            max_concurrent = 8

            [[bind]]
            gesture = "pan"
            step = 10
            step_of = "translation_mm"
            run = ["/bin/sh", "-c", "echo \\"$GESTURE_STEPS $GESTURE_TRANSLATION_X_MM $GESTURE_TRANSLATION_Y_MM\\" >> $DIR/steps"]
            max_concurrent = 64
            """
        let d = try DaemonHarness(config: config, replays: [DaemonHarness.dragRecording])
        let c = try d.connect()
        try d.replayAndWait(c)
        let events = c.collectEvents(for: 1.0).filter { $0["gesture"] as? String == "pan" }
        let phases = events.map { $0["phase"] as? String ?? "" }
        #expect(phases.first == "began" && phases.last == "ended", "\(phases)\n\(d.log)")
        // The distance the pan covered, from its last `changed` event, decides how many steps fire.
        let lastChanged = try #require(events.last { $0["phase"] as? String == "changed" })
        let t = try #require(lastChanged["translation_mm"] as? [String: Double])
        let length = ((t["x"] ?? 0) * (t["x"] ?? 0) + (t["y"] ?? 0) * (t["y"] ?? 0)).squareRoot()
        #expect(length > 20, "drag too short for a step test: \(length) mm")

        var stepLines: [Substring] = []
        var phaseLines: [Substring] = []
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            stepLines = ((try? String(contentsOfFile: d.dir + "/steps", encoding: .utf8)) ?? "").split(separator: "\n")
            phaseLines = ((try? String(contentsOfFile: d.dir + "/phases", encoding: .utf8)) ?? "").split(separator: "\n")
            if phaseLines.count >= 2 && !stepLines.isEmpty { break }
            usleep(50_000)
        }
        #expect(phaseLines.sorted() == ["began", "ended"], "\(d.log)")
        // Steps are whole multiples of 10 mm of the translation's length: with a monotonic
        // drag, the signed step counts add up to floor(length / 10).
        let total = stepLines.compactMap { Int($0.split(separator: " ").first ?? "") }.reduce(0, +)
        #expect(total == Int(length / 10), "steps \(stepLines), length \(length)")
    }
}
