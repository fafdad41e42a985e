import Testing
@testable import GestureKit

/// The shape recognizers of one arena follow one finger into one SharedStroke: the stroke must be
/// exactly the one each would have kept alone, a recognizer that sees another finger must not
/// spoil it, and the cheap bounds at lift must never rule out a shape the full analysis accepts.
@Suite struct SharedStrokeTests {
    static let surface = Synthetic.surface

    static func frame(_ time: Double, _ contacts: [(Int32, ContactPhase, Point)]) -> TouchFrame {
        TouchFrame(time: time, surface: surface, contacts: contacts.enumerated().map { k, c in
            Contact(id: c.0, slot: Int32(k), phase: c.1, mm: c.2, position: surface.normalized(c.2))
        })
    }

    /// The frames of one finger drawing `pts`, a point repeated now and then (a finger at rest).
    static func frames(_ pts: [Point], id: Int32 = 1) -> [TouchFrame] {
        var out: [TouchFrame] = []
        for (i, p) in pts.enumerated() {
            let phase: ContactPhase = i == 0 ? .began : (i == pts.count - 1 ? .ended : .moved)
            out.append(frame(Double(out.count) * 0.01, [(id, phase, p)]))
            if i % 7 == 3 { out.append(frame(Double(out.count) * 0.01, [(id, .stationary, p)])) }
        }
        return out
    }

    @Test func shapesOfOneContextReadOneStrokeTheSameAsAlone() throws {
        let context = RecognizerContext()
        let circle = CircleRecognizer(rules: CircleRules(), context: context)
        let checkmark = CheckmarkRecognizer(rules: CheckmarkRules(), context: context)
        let tickle = TickleRecognizer(rules: TickleRules(), context: context)
        let alone = CircleRecognizer(), tickleAlone = TickleRecognizer()
        let pts = Synthetic.transformed(Synthetic.arc(radius: 25, turns: 1.05), jitter: 0.3, seed: 3)
        var events: [GestureEvent] = [], aloneEvents: [GestureEvent] = []
        for f in Self.frames(pts) {
            for r in [circle, checkmark, tickle] as [any GestureRecognizer] { r.handle(f, events: &events) }
            alone.handle(f, events: &aloneEvents)
            tickleAlone.handle(f, events: &aloneEvents)
        }
        #expect(events.map(\.kind) == [.circle])
        let e = try #require(events.first), a = try #require(aloneEvents.first)
        #expect(e.centerMM == a.centerMM && e.center == a.center && e.radiusMM == a.radiusMM && e.turns == a.turns)
        #expect(context.stroke.stroke.samples == alone.stroke.samples)
        #expect(circle.stroke.samples == alone.stroke.samples && checkmark.stroke.samples == alone.stroke.samples)
        #expect(circle.resampled == alone.resampled)
        // Tickle was told of every new point, as alone.
        #expect(tickle.analysis.turns == tickleAlone.analysis.turns && !tickle.analysis.turns.isEmpty)
        // Reset, the next stroke starts afresh for all of them.
        for r in [circle, checkmark, tickle, alone] as [any GestureRecognizer] { r.reset() }
        #expect(circle.stroke.isEmpty)
        let line = Synthetic.polyline([Point(x: 20, y: 40), Point(x: 200, y: 44)])
        for f in Self.frames(line) { circle.handle(f, events: &events); checkmark.handle(f, events: &events) }
        #expect(context.stroke.stroke.count == line.count && circle.state == .failed && checkmark.state == .failed)
    }

    /// Views differ when a region is excluded for one recognizer only: each may follow another
    /// finger. The second is refused the shared stroke and keeps its own; neither is disturbed.
    @Test func aRecognizerFollowingAnotherFingerKeepsItsOwnStroke() {
        let context = RecognizerContext()
        let a = CircleRecognizer(rules: CircleRules(), context: context)
        let b = CircleRecognizer(rules: CircleRules(), context: context)
        let circle = Synthetic.arc(center: Point(x: 80, y: 100), radius: 25, turns: 1.05)
        let other = Synthetic.arc(center: Point(x: 200, y: 100), radius: 30, turns: -1.1)
        var events: [GestureEvent] = []
        let framesA = Self.frames(circle, id: 1), framesB = Self.frames(other, id: 2)
        for k in 0..<max(framesA.count, framesB.count) {
            if k < framesA.count { a.handle(framesA[k], events: &events) }
            if k < framesB.count { b.handle(framesB[k], events: &events) }
        }
        #expect(a.state == .recognized && b.state == .recognized)
        #expect(a.stroke.count == circle.count && b.stroke.count == other.count)
        #expect(events.map(\.direction) == [.clockwise, .counterclockwise] || events.map(\.direction) == [.counterclockwise, .clockwise])
        // Reset, both are back on the shared stroke.
        a.reset(); b.reset()
        for f in Self.frames(circle) { a.handle(f, events: &events); b.handle(f, events: &events) }
        #expect(a.state == .recognized && b.state == .recognized && context.stroke.stroke.count == circle.count)
    }

    /// The bounds at lift (CircleAnalysis.rulesOut, CheckmarkAnalysis.rulesOut) rule out the
    /// played straight swipe's kind of stroke, and never a stroke the full analysis accepts.
    @Test func boundsRuleOutSwipesAndNeverAShape() {
        var shapes = Fooling.all + [
            ("swipe", Synthetic.polyline([Point(x: 30, y: 28), Point(x: 300, y: 25), Point(x: 660, y: 26)], step: 6)),
            ("check", Synthetic.polyline([Point(x: 80, y: 100), Point(x: 95, y: 118), Point(x: 135, y: 70)], step: 0.7)),
        ]
        for r in [8.0, 25, 60] {
            shapes.append(("circle \(r)", Synthetic.arc(radius: r, turns: 1.05)))
            shapes.append(("ellipse \(r)", Synthetic.ellipse(rx: r, ry: r * 0.75)))
        }
        var checksSeen = 0, circlesSeen = 0
        for (name, pts) in shapes {
            var stroke = Stroke()
            for p in pts { stroke.append(mm: p, position: p) }
            var circlePoints: [Point] = [], checkPoints: [Point] = []
            stroke.resample(count: CircleRecognizer.samples, into: &circlePoints)
            stroke.resample(count: 48, into: &checkPoints)
            let isCircle = CircleAnalysis.analyze(circlePoints, rules: CircleRules()).isRecognized
            let isCheck = CheckmarkAnalysis.analyze(checkPoints, rules: CheckmarkRules()).isRecognized
            let circleOut = CircleAnalysis.rulesOut(box: stroke.boxMM, lengthMM: stroke.lengthMM,
                                                    samples: CircleRecognizer.samples, rules: CircleRules())
            let checkOut = CheckmarkAnalysis.rulesOut(stroke, rules: CheckmarkRules())
            #expect(!(isCircle && circleOut) && !(isCheck && checkOut), "\(name)")
            if name == "swipe" { #expect(circleOut && checkOut) }
            if isCircle { circlesSeen += 1 }
            if isCheck { checksSeen += 1 }
        }
        #expect(circlesSeen >= 5 && checksSeen >= 1)
    }
}
