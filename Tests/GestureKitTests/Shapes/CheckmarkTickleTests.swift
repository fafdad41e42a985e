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
    }

    @Test func twoReversalsAreNotEnough() {
        let r = TickleRecognizer()
        #expect(Synthetic.play(scrub(legs: 3, width: 12), into: r).isEmpty)
        #expect(r.state == .failed)
    }

    @Test func shortLegsDoNotCount() {
        #expect(Synthetic.play(scrub(legs: 8, width: 4), into: TickleRecognizer()).isEmpty)
    }

    @Test func circlesAreNotTickles() {
        #expect(Synthetic.play(Synthetic.arc(radius: 20, turns: 2.5, points: 300), into: TickleRecognizer()).isEmpty)
    }
}
