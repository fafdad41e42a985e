import Testing
@testable import GestureKit

/// With the default rules pan yields to swipe and the shapes (`yieldsTo`): it begins as soon as
/// it passes its slop, provisionally, and gives way — `cancelled`, before the winner's event —
/// when one of them wins. Until then it has taken no contact.
@Suite struct ProvisionalPanTests {
    /// The arena's output, each event with the time of the frame that made the arena emit it.
    func emitted(_ arena: GestureArena, _ frames: [TouchFrame]) -> [(at: Double, event: GestureEvent)] {
        var out: [(at: Double, event: GestureEvent)] = []
        for f in frames { arena.handle(f) { out.append((f.time, $0)) } }
        return out
    }

    @Test func aStraightDragBeginsAPanWithin100msOfPassingTheSlop() throws {
        // 100 mm/s to the right (a deliberate scroll), 80 mm in 0.8 s, frames every 10 ms,
        // 0.3 mm sensor jitter; the pan's slop is its default, 4 mm.
        var s = Touches(jitterMM: 0.3)
        let frames = s.frames([Finger(id: 1, down: 0, up: 0.8, path: line(P(50, 60), P(130, 60), 0, 0.8))])
        let slopMM = 4.0  // pan's default slop_mm
        let start = frames[0].contacts[0].mm
        let passed = try #require(frames.first { ($0.contacts[0].mm - start).length >= slopMM }).time
        let arena = defaultArena()
        var claimedWhileDragging: [Int32] = []
        var contested = true
        var out: [(at: Double, event: GestureEvent)] = []
        for f in frames.dropLast() {
            arena.handle(f) { out.append((f.time, $0)) }
            arena.drainClaims { claimedWhileDragging.append($0) }
            contested = contested && arena.isContested(1)
        }
        let began = try #require(out.first { $0.event.kind == .pan && $0.event.phase == .began })
        #expect(began.at - passed <= 0.1, "pan began \(began.at - passed) s after passing its slop")
        #expect(began.at - passed <= 0.011)  // in fact in the same frame (edge_swipe failed at touch-down)
        // It follows the finger while the swipe and the shapes are undecided…
        let last = try #require(out.last { $0.event.kind == .pan })
        #expect(last.event.phase == .changed && (last.event.translationMM?.x ?? 0) > 70)
        // …without taking the contact from the app yet.
        #expect(claimedWhileDragging.isEmpty && contested)
        // At lift a straight drag is a swipe: the pan gives way, cancelled before it.
        arena.handle(frames[frames.count - 1]) { out.append((frames[frames.count - 1].time, $0)) }
        let events = out.map(\.event)
        #expect(summary(completedGestures(events)) == ["swipe.recognized"])
        #expect(gaveWay(events, to: .swipe))
        var claimed: [Int32] = []
        arena.drainClaims { claimed.append($0) }
        #expect(claimed.contains(1))
    }

    @Test func unheardChangesAreNotBuiltAndTheRestIsTheSame() {
        // The same slow drag twice: with pan's changes unheard, the events are those of the
        // first run without its `changed` ones, at the same times.
        func drag() -> [TouchFrame] {
            var s = Touches(jitterMM: 0.2)
            return s.frames([Finger(id: 1, down: 0, up: 0.5, path: line(P(80, 60), P(92, 60), 0, 0.5))])
        }
        let heard = emitted(defaultArena(), drag())
        let arena = defaultArena()
        #expect(arena.reportChanges(of: .pan, false))
        #expect(!arena.reportChanges(of: .swipe, false))  // a discrete gesture has no changes
        let unheard = emitted(arena, drag())
        #expect(heard.contains { $0.event.phase == .changed })
        let expected = heard.filter { $0.event.phase != .changed }
        #expect(unheard.map { "\($0.at) \($0.event.kind) \($0.event.phase)" } == expected.map { "\($0.at) \($0.event.kind) \($0.event.phase)" })
        #expect(unheard.last?.event.translationMM == heard.last?.event.translationMM)
    }

    @Test func aShortSlowDragIsAPanThatEndsWhenTheOthersFail() {
        // 12 mm in 0.5 s (24 mm/s): too short for a swipe (20 mm), no shape.
        var s = Touches(jitterMM: 0.2)
        let frames = s.frames([Finger(id: 1, down: 0, up: 0.5, path: line(P(80, 60), P(92, 60), 0, 0.5))])
        let out = emitted(defaultArena(), frames)
        let pans = out.filter { $0.event.kind == .pan }
        #expect(out.allSatisfy { $0.event.kind == .pan })
        #expect(pans.first?.event.phase == .began && (pans.first?.at ?? 1) < 0.25)
        // Its `ended` waited for swipe and the shapes to fail, which they do at lift.
        #expect(pans.last?.event.phase == .ended && pans.last?.at == 0.5)
        #expect(!pans.contains { $0.event.phase == .cancelled })
    }

    @Test func aCircleEndsAsACircleWithThePanCancelledBeforeIt() {
        var s = Touches(jitterMM: 0.3)
        let e = run(defaultArena(),
                    s.frames([Finger(id: 1, down: 0, up: 1.2, path: circlePath(center: P(100, 60), radius: 25, t0: 0, t1: 1.2))]))
        #expect(summary(completedGestures(e)) == ["circle.recognized"])
        #expect(gaveWay(e, to: .circle))
        #expect(e.last?.kind == .circle)
    }

    @Test func aCheckmarkEndsAsACheckmarkWithThePanCancelledBeforeIt() {
        var s = Touches(jitterMM: 0.2)
        let check = Synthetic.polyline([P(80, 60), P(95, 78), P(135, 30)], step: 1.5)
        let path: (Double) -> Point = { t in check[min(max(Int((t / 0.01).rounded()), 0), check.count - 1)] }
        let e = run(defaultArena(), s.frames([Finger(id: 1, down: 0, up: Double(check.count - 1) * 0.01, path: path)]))
        #expect(summary(completedGestures(e)) == ["checkmark.recognized"])
        #expect(gaveWay(e, to: .checkmark))
    }

    @Test func aTwoFingerSwipeCancelsItsProvisionalPan() {
        var s = Touches(jitterMM: 0.2)
        let e = run(defaultArena(), s.frames([Finger(id: 1, down: 0, up: 0.3, path: line(P(60, 50), P(60, 110), 0, 0.3)),
                                              Finger(id: 2, down: 0, up: 0.3, path: line(P(80, 50), P(80, 110), 0, 0.3))]))
        #expect(summary(completedGestures(e)) == ["swipe.recognized"])
        #expect(e.last?.fingers == 2 && e.last?.direction == .down)
        #expect(gaveWay(e, to: .swipe))
    }

    @Test func aRecognizerThatYieldsNeitherWaitsNorCancels() {
        // The rule in isolation: pan yields to swipe. A bent stroke: the pan began at its slop
        // and wins when the swipe fails at the bend; its held events are not held at all.
        var s = Touches()
        let arena = GestureArena(recognizers: [SwipeRecognizer(), PanRecognizer()], rules: ArenaRules(yieldsTo: [.pan: [.swipe]]))
        let bent: (Double) -> Point = { t in
            t < 0.3 ? line(P(50, 30), P(90, 30), 0, 0.3)(t) : line(P(90, 30), P(90, 70), 0.3, 0.6)(t)
        }
        let frames = s.frames([Finger(id: 1, down: 0, up: 0.6, path: bent)])
        var claims: [(Double, Int32)] = []
        var out: [(at: Double, event: GestureEvent)] = []
        for f in frames {
            arena.handle(f) { out.append((f.time, $0)) }
            arena.drainClaims { claims.append((f.time, $0)) }
        }
        #expect(Set(out.map(\.event.kind)) == [.pan])
        #expect((out.first?.at ?? 1) <= 0.03)
        #expect(out.last?.event.phase == .ended)
        // It took the contact when the swipe failed (at the bend), not when it began.
        #expect((claims.first?.0 ?? 0) > 0.3)
    }

    @Test func tapStillWaitsForPanAndSurvivesIt() {
        var s = Touches(jitterMM: 0.3)
        let e = run(defaultArena(), s.frames([Finger(id: 1, down: 0, up: 0.08, path: still(P(100, 60)))]))
        #expect(summary(e) == ["tap.recognized"])
    }
}
