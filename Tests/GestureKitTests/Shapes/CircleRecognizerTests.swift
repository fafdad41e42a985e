import Testing
@testable import GestureKit

@Suite struct CircleFitTests {
    @Test func fitsAnExactCircleAwayFromTheOrigin() throws {
        // A half circle: with the `Yi+Yi` typo the moments are wrong and the centre moves.
        let pts = Synthetic.arc(center: Point(x: 140, y: 60), radius: 25, from: 0.3, turns: 0.5)
        let fit = try #require(CircleFit.taubin(pts))
        #expect(abs(fit.center.x - 140) < 1e-6)
        #expect(abs(fit.center.y - 60) < 1e-6)
        #expect(abs(fit.radius - 25) < 1e-6)
    }

    @Test func collinearPointsHaveNoFit() {
        #expect(CircleFit.taubin([Point(x: 0, y: 0), Point(x: 1, y: 1), Point(x: 2, y: 2), Point(x: 3, y: 3)]) == nil)
        #expect(CircleFit.taubin([Point(x: 0, y: 0), Point(x: 1, y: 1)]) == nil)
    }
}

@Suite struct CircleRecognizerTests {
    func recognize(_ pts: [Point], regions: [Region] = []) -> GestureEvent? {
        let r = CircleRecognizer(rules: CircleRules(), context: RecognizerContext(regions: regions))
        let events = Synthetic.play(pts, into: r)
        #expect(r.state == (events.isEmpty ? .failed : .recognized))
        return events.first
    }

    @Test func clockwiseCircleIsRecognizedWithItsGeometry() throws {
        // From the top, going right first: clockwise on a screen (y down).
        let e = try #require(recognize(Synthetic.arc(center: Point(x: 150, y: 100), radius: 30, turns: 1.05)))
        #expect(e.kind == .circle && e.phase == .recognized && e.fingers == 1)
        #expect(e.direction == .clockwise)
        #expect(abs(e.centerMM.x - 150) < 0.5 && abs(e.centerMM.y - 100) < 0.5)
        #expect(abs(e.center.x - 0.5) < 0.01 && abs(e.center.y - 0.5) < 0.01)  // 300 × 200 mm surface
        #expect(abs((e.radiusMM ?? 0) - 30) < 0.5)
        #expect(abs((e.turns ?? 0) - 1.05) < 0.02)
        #expect((e.fitError ?? 1) < 0.01)
    }

    @Test func counterclockwiseCircle() throws {
        let e = try #require(recognize(Synthetic.arc(radius: 20, from: 0.7, turns: -1.2)))
        #expect(e.direction == .counterclockwise)
    }

    @Test(arguments: [8.0, 15, 40, 90])
    func circlesOfManySizesAndJitter(radius: Double) {
        for seed in UInt64(1)...5 {
            let pts = Synthetic.transformed(Synthetic.arc(radius: radius, from: Double(seed), turns: 0.95 + 0.1 * Double(seed)),
                                            jitter: 0.03 * radius, seed: seed)
            #expect(recognize(pts) != nil, "r=\(radius) seed=\(seed)")
        }
    }

    @Test func ellipsesUpToAspect1_4() {
        #expect(recognize(Synthetic.ellipse(rx: 28, ry: 20)) != nil)
        #expect(recognize(Synthetic.ellipse(rx: 20, ry: 26)) != nil)
        #expect(recognize(Synthetic.ellipse(rx: 40, ry: 20)) == nil)  // aspect 2: an oval, not a circle
    }

    @Test func tooSmallIsNotACircle() {
        #expect(recognize(Synthetic.arc(radius: 3, turns: 1.05)) == nil)
    }

    /// `max_radius_mm` (a kiosk ignores a wipe round the whole screen): larger circles fail,
    /// and the limit comes from the config key.
    @Test func maxRadiusRejectsLargeCircles() throws {
        let big = Synthetic.arc(center: Point(x: 150, y: 100), radius: 60, turns: 1.05)
        #expect(recognize(big) != nil)
        let r = try #require(CircleRecognizer.spec.make(["max_radius_mm": 40]) as? CircleRecognizer)
        #expect(Synthetic.play(big, into: r).isEmpty)
        #expect(r.analysis?.verdict == .tooLarge)
        #expect(Synthetic.play(Synthetic.arc(center: Point(x: 150, y: 100), radius: 30, turns: 1.05), into: CircleRecognizer { $0.maxRadiusMM = 40 }).count == 1)
    }

    @Test func foolingShapesAreNotCircles() {
        for (name, pts) in Fooling.all {
            let r = CircleRecognizer()
            let events = Synthetic.play(pts, into: r)
            #expect(events.isEmpty, "\(name) taken for a circle: \(r.analysis.map { "\($0.verdict)" } ?? "-")")
        }
    }

    @Test func eachRuleHasAShapeItRejects() {
        func verdict(_ pts: [Point]) -> CircleVerdict? {
            let r = CircleRecognizer()
            Synthetic.play(pts, into: r)
            return r.analysis?.verdict
        }
        #expect(verdict(Synthetic.arc(radius: 3, turns: 1)) == .tooSmall)
        #expect(verdict(Synthetic.arc(radius: 25, turns: 0.75)) == .tooFewTurns)
        #expect(verdict(Synthetic.arc(radius: 25, turns: 3.5)) == .tooManyTurns)
        #expect(verdict(Synthetic.roundedRect(halfW: 25, halfH: 25, rho: 0.25)) != .recognized)
        #expect(verdict(Synthetic.arc(radius: 30, turns: 2.5, radiusGrowth: -0.8)) != .recognized)
    }

    @Test func decidingAtTheFirstFailedRuleGivesTheCompleteVerdict() {
        let shapes = Fooling.all + [
            ("circle", Synthetic.arc(radius: 25, turns: 1)), ("small", Synthetic.arc(radius: 3, turns: 1)),
            ("3.5 turns", Synthetic.arc(radius: 25, turns: 3.5)), ("ellipse", Synthetic.ellipse(rx: 30, ry: 22)),
        ]
        var verdicts: Set<String> = []
        for (name, pts) in shapes {
            var stroke = Stroke()
            for p in pts { stroke.append(mm: p, position: p) }
            var points: [Point] = []
            stroke.resample(count: 96, into: &points)
            var scratch = TurningScratch()
            let complete = CircleAnalysis.analyze(points, rules: CircleRules(), scratch: &scratch)
            let decided = CircleAnalysis.analyze(points, rules: CircleRules(), scratch: &scratch, complete: false)
            #expect(decided.verdict == complete.verdict, "\(name)")
            verdicts.insert("\(complete.verdict)")
        }
        #expect(verdicts.count >= 5)  // the shapes fail on different rules
    }

    @Test func secondFingerFailsAndCancelledContactCancels() {
        let circle = Synthetic.arc(radius: 25, turns: 1.05)
        let a = CircleRecognizer()
        #expect(Synthetic.play(circle, into: a, extraFinger: 60).isEmpty)
        #expect(a.state == .failed)
        let b = CircleRecognizer()
        #expect(Synthetic.play(circle, into: b, cancelAt: 100).isEmpty)
        #expect(b.state == .cancelled)
        // After reset the recognizer is as new.
        b.reset()
        #expect(!Synthetic.play(circle, into: b).isEmpty)
    }

    @Test func reportsTheSmallestEnclosedRegion() throws {
        // The circle (centre 150,100 mm; r 30) on a 300 × 200 mm surface spans x 0.4…0.6, y 0.35…0.65.
        let regions = [
            Region(name: "panel", rect: Rect(minX: 0.3, minY: 0.3, maxX: 0.7, maxY: 0.7)),
            Region(name: "logo", rect: Rect(minX: 0.47, minY: 0.47, maxX: 0.53, maxY: 0.53)),
            Region(name: "elsewhere", rect: Rect(minX: 0.8, minY: 0.8, maxX: 0.9, maxY: 0.9)),
        ]
        let pts = Synthetic.arc(center: Point(x: 150, y: 100), radius: 30, turns: 1.05)
        #expect(recognize(pts, regions: regions)?.region == "logo")
        #expect(recognize(pts, regions: [regions[2]])?.region == nil)
    }
}
