import Testing
@testable import GestureKit

@Suite struct CheckmarkRecognizerTests {
    typealias P = Point
    func recognize(_ pts: [Point]) -> Bool {
        let r = CheckmarkRecognizer()
        return !Synthetic.play(pts, into: r).isEmpty
    }

    @Test func cleanAndJitteryChecks() {
        let check = Synthetic.polyline([P(x: 80, y: 100), P(x: 95, y: 118), P(x: 135, y: 70)], step: 0.7)
        #expect(recognize(check))
        for seed in UInt64(1)...8 {
            let s = 0.3 + 0.25 * Double(seed)  // 5 … 44 mm across at most
            #expect(recognize(Synthetic.transformed(check, scale: s, rotation: 0.02 * Double(seed) - 0.08,
                                                    jitter: 0.6, seed: seed)), "seed \(seed)")
        }
        // A curved first stroke (a hook) is still a check.
        let hooked = Synthetic.arc(center: P(x: 80, y: 110), radius: 14, from: -Double.pi / 2, turns: 0.2)
            + Synthetic.polyline([P(x: 94, y: 112), P(x: 140, y: 60)])
        #expect(recognize(hooked))
    }

    @Test func reportsTheTurnPoint() throws {
        let r = CheckmarkRecognizer()
        let e = try #require(Synthetic.play(Synthetic.polyline([P(x: 80, y: 100), P(x: 95, y: 118), P(x: 135, y: 70)]), into: r).first)
        #expect(e.kind == .checkmark)
        #expect(abs(e.centerMM.x - 95) < 1 && abs(e.centerMM.y - 118) < 1)
    }

    @Test func foolingShapesAreNotChecks() {
        for (name, pts) in Fooling.all {
            let r = CheckmarkRecognizer()
            #expect(Synthetic.play(pts, into: r).isEmpty, "\(name): \(r.analysis.map { "\($0.verdict)" } ?? "-")")
        }
        #expect(!recognize(Synthetic.arc(radius: 25, turns: 1.05)))
    }

    @Test func secondFingerFails() {
        let r = CheckmarkRecognizer()
        let check = Synthetic.polyline([P(x: 80, y: 100), P(x: 95, y: 118), P(x: 135, y: 70)])
        #expect(Synthetic.play(check, into: r, extraFinger: 10).isEmpty)
        #expect(r.state == .failed)
    }
}

@Suite struct TickleRecognizerTests {
    typealias P = Point

    /// Left-right scrubbing: `legs` legs of `width` mm, with a little vertical wander.
    func scrub(legs: Int, width: Double) -> [Point] {
        var corners = [P(x: 100, y: 100)]
        for i in 1...legs { corners.append(P(x: 100 + (i % 2 == 1 ? width : 0), y: 100 + Double(i % 3))) }
        return Synthetic.polyline(corners, step: 0.8)
    }

    /// A finger scrubbing as a hand does: x eases in and out of each turn (a cosine), `legSeconds`
    /// per leg sampled every 10 ms, drifting up and down by `wander` mm, plus `jitter` mm of noise.
    func handScrub(legs: Int, width: Double, legSeconds: Double, wander: Double = 1.5, jitter: Double = 0,
                   seed: UInt64 = 1) -> [Point] {
        var noise = Synthetic.Noise(seed: seed)
        let n = max(2, Int(legSeconds / 0.01))
        var out: [Point] = []
        for k in 0...(legs * n) {
            let phase = Double(k) / Double(n) * Double.pi  // one leg per π
            let x = 100 + width / 2 * (1 - Angle.cos(phase))
            let y = 100 + wander * Angle.sin(phase * 0.37)
            out.append(P(x: x + jitter * noise.next(), y: y + jitter * noise.next()))
        }
        return out
    }

    @Test func recognizedOnTheThirdReversalWhileDown() throws {
        let pts = scrub(legs: 6, width: 12)
        let r = TickleRecognizer()
        let events = Synthetic.play(pts, into: r, lift: false)
        let e = try #require(events.first)
        #expect(events.count == 1)
        #expect(e.reversals == 3)
        // Reversals at x = 112, 100, 112: the third is seen once the finger is back 1.5 mm
        // (the hysteresis) from 112, on the fourth leg.
        #expect(e.centerMM.x <= 112 - 1.5 && e.centerMM.x > 112 - 1.5 - 0.81)
        #expect(abs(r.analysis.reversalPoints[2].x - 112) < 0.01)
        #expect(r.analysis.reversalPoints.count == 3)
        #expect(r.analysis.turns.allSatisfy { $0.verdict == .counted })
    }

    /// Amplitudes from 8 to 40 mm, legs from 80 ms (fast) to 0.5 s (slow), clean and noisy.
    @Test func handTicklesAtManySpeedsAndSizes() {
        var missed: [String] = []
        var seed: UInt64 = 0
        for width in [8.0, 12, 20, 40] {
            for legSeconds in [0.08, 0.15, 0.3, 0.5] {
                for jitter in [0.0, 0.4] {
                    seed += 1
                    let pts = handScrub(legs: 5, width: width, legSeconds: legSeconds, jitter: jitter, seed: seed)
                    let r = TickleRecognizer()
                    if Synthetic.play(pts, into: r, lift: false).count != 1 {
                        missed.append("width \(width) leg \(legSeconds) s jitter \(jitter): "
                                      + "\(r.analysis.turns.map { "\($0.verdict)" })")
                    }
                }
            }
        }
        #expect(missed.isEmpty, "\(missed)")
    }

    @Test func twoReversalsAreNotEnough() {
        let r = TickleRecognizer()
        #expect(Synthetic.play(scrub(legs: 3, width: 12), into: r).isEmpty)
        #expect(r.state == .failed)
    }

    @Test func shortLegsDoNotCount() {
        let r = TickleRecognizer()
        #expect(Synthetic.play(scrub(legs: 8, width: 4), into: r).isEmpty)
        #expect(r.analysis.turns.allSatisfy { $0.verdict == .short })
    }

    @Test func slowBackAndForthIsNoTickle() {
        // One second per leg: someone drawing, not scrubbing.
        let r = TickleRecognizer()
        #expect(Synthetic.play(handScrub(legs: 6, width: 20, legSeconds: 1.0), into: r).isEmpty)
        #expect(r.analysis.turns.contains { $0.verdict == .slow })
        #expect(r.analysis.bestCount == 0)
    }

    @Test func unevenLegsAreNoTickle() {
        // Long, short, long, short: an arrow's shaft and its head, a wide zig-zag with hooks.
        let corners = [P(x: 60, y: 100), P(x: 100, y: 100), P(x: 90, y: 101), P(x: 130, y: 101),
                       P(x: 120, y: 100), P(x: 160, y: 100), P(x: 150, y: 101)]
        let r = TickleRecognizer()
        #expect(Synthetic.play(Synthetic.polyline(corners, step: 0.8), into: r).isEmpty)
        #expect(r.analysis.turns.filter { $0.verdict == .uneven }.count == 4)  // every turn after the first
        #expect(r.analysis.bestCount == 1)
        // Legs within the ratio (40, 25, 40 … ≤ 2) are a tickle.
        let even = [P(x: 60, y: 100), P(x: 100, y: 100), P(x: 75, y: 101), P(x: 115, y: 101), P(x: 100, y: 100)]
        #expect(Synthetic.play(Synthetic.polyline(even, step: 0.8), into: TickleRecognizer()).count == 1)
    }

    @Test func zigZagDownTheScreenIsNoTickle() {
        // Every leg is flat enough on its own (rises 0.45 of its travel, the rule allows 0.5),
        // but the run steps down the screen: as tall as it is wide after two legs.
        var corners = [P(x: 100, y: 100)]
        for i in 1...8 { corners.append(P(x: i % 2 == 1 ? 120 : 100, y: 100 + 9 * Double(i))) }
        let r = TickleRecognizer()
        #expect(Synthetic.play(Synthetic.polyline(corners, step: 0.8), into: r).isEmpty)
        #expect(r.analysis.turns.contains { $0.verdict == .drifts })
        #expect(r.analysis.bestCount < 3)
        // The same zig-zag in place (up, down, up …) is a tickle.
        var inPlace = [P(x: 100, y: 100)]
        for i in 1...6 { inPlace.append(P(x: i % 2 == 1 ? 120 : 100, y: i % 2 == 1 ? 109 : 100)) }
        #expect(Synthetic.play(Synthetic.polyline(inPlace, step: 0.8), into: TickleRecognizer()).count == 1)
    }

    @Test func steepLegsAreNoTickle() {
        // A curly brace: long vertical parts with a small bump sideways, drawn quickly.
        let brace = [P(x: 110, y: 60), P(x: 102, y: 64), P(x: 102, y: 92), P(x: 94, y: 100), P(x: 102, y: 108),
                     P(x: 102, y: 136), P(x: 110, y: 140)]
        let r = TickleRecognizer()
        #expect(Synthetic.play(Synthetic.polyline(brace, step: 1.5), into: r).isEmpty)
        #expect(r.analysis.bestCount < 3)
    }

    @Test func circlesAreNotTickles() {
        #expect(Synthetic.play(Synthetic.arc(radius: 20, turns: 2.5, points: 300), into: TickleRecognizer()).isEmpty)
    }

    @Test func parametersComeFromTheSpec() {
        let r = TickleRecognizer.spec.make(["max_leg_time_s": 2]) as! TickleRecognizer
        #expect(r.rules.maxLegSeconds == 2)
        #expect(r.rules.maxLegRatio == 2 && r.rules.maxDrift == 0.8 && r.rules.maxSlope == 0.5)
        // With a 2 s limit the slow scrubbing is a tickle.
        #expect(Synthetic.play(handScrub(legs: 6, width: 20, legSeconds: 1.0), into: r, lift: false).count == 1)
    }
}
