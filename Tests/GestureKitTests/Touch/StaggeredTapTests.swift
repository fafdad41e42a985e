import Testing
@testable import GestureKit

/// Multi-finger taps as real hands make them: fingers land and lift in different frames, and
/// the last one lingers and drifts a little before it lifts.
@Suite struct StaggeredTapTests {
    /// `n` fingers 15 mm apart landing 10 ms apart; all but the last lift together at 80 ms,
    /// the last lingers 30 ms more, drifting 2 mm.
    func staggered(_ n: Int, drift: Double = 2, linger: Double = 0.03) -> [Finger] {
        (0..<n).map { i in
            let p = P(80 + 15 * Double(i), 60)
            let last = i == n - 1
            let up = last ? 0.08 + linger : 0.08
            return Finger(id: Int32(i + 1), down: 0.01 * Double(i), up: up,
                          path: last ? line(p, p + P(drift, 0), 0.08, up) : still(p))
        }
    }

    @Test(arguments: [2, 3, 4])
    func aloneTheTapCountsEveryFinger(fingers: Int) {
        var s = Touches(jitterMM: 0.2)
        let e = run(TapRecognizer { $0.maxCount = 1 }, s.frames(staggered(fingers)))
        #expect(summary(e) == ["tap.recognized"])
        #expect(e.first?.fingers == fingers)
    }

    @Test(arguments: [2, 3, 4])
    func theDefaultArenaReportsTheTap(fingers: Int) {
        var s = Touches(jitterMM: 0.2)
        let e = run(RecognizerCatalog.defaultArena(), s.frames(staggered(fingers)))
        #expect(summary(e) == ["tap.recognized"])
        #expect(e.first?.fingers == fingers)
    }
}
