import Testing
@testable import GestureKit

func defaultArena(regions: [Region] = [], rules: ArenaRules? = nil) -> GestureArena {
    let recognizers = RecognizerCatalog.all.map { $0.make() }
    return GestureArena(recognizers: recognizers, rules: rules ?? RecognizerCatalog.defaultRules, regions: regions)
}

func circlePath(center c: Point, radius r: Double, t0: Double, t1: Double) -> (Double) -> Point {
    { t in
        let a = 2 * Angle.pi * min(max((t - t0) / (t1 - t0), 0), 1)
        return P(c.x + r * cosine(a), c.y + r * sine(a))
    }
}

@Suite struct GestureArenaTests {
    // MARK: Default combinations

    @Test func tapDoubleTapAndLongPressKeepApart() {
        var s = Touches(jitterMM: 0.3)
        let single = run(defaultArena(), s.frames([Finger(id: 1, down: 0, up: 0.08, path: still(P(100, 60)))]))
        #expect(summary(single) == ["tap.recognized"])
        #expect(single.first?.tapCount == 1)

        let arena = defaultArena()
        let double = run(arena, s.frames([Finger(id: 1, down: 0, up: 0.08, path: still(P(100, 60)))])
                             + s.frames([Finger(id: 2, down: 0.2, up: 0.27, path: still(P(101, 61)))]))
        #expect(summary(double) == ["tap.recognized"])
        #expect(double.first?.tapCount == 2)

        let long = run(defaultArena(), s.frames([Finger(id: 1, down: 0, up: 0.9, path: still(P(100, 60)))]))
        // Jitter within max_movement_mm is not movement: the hold just begins and ends.
        #expect(summary(long) == ["long_press.began", "long_press.ended"])
    }

    @Test func straightStrokeIsASwipeAndNotAPan() {
        var s = Touches(jitterMM: 0.3)
        let e = run(defaultArena(), s.frames([Finger(id: 1, down: 0, up: 0.3, path: line(P(50, 60), P(120, 60), 0, 0.3))]))
        // The pan that began provisionally gives way: cancelled, before the swipe.
        #expect(summary(completedGestures(e)) == ["swipe.recognized"])
        #expect(gaveWay(e, to: .swipe))
        #expect(e.last?.direction == .right)
    }

    @Test func bentStrokeBecomesAPanWithHeldEventsDelivered() {
        var s = Touches(jitterMM: 0.3)
        // Right 40 mm, then down 40 mm: the swipe fails when it bends, then pan starts.
        let path: (Double) -> Point = { t in
            t < 0.3 ? line(P(50, 30), P(90, 30), 0, 0.3)(t) : line(P(90, 30), P(90, 70), 0.3, 0.6)(t)
        }
        // With the default rules the pan does not wait (it yields to swipe): one pan, from the start.
        let d = run(defaultArena(), s.frames([Finger(id: 1, down: 0, up: 0.6, path: path)]))
        #expect(Set(d.map(\.kind)) == [.pan])
        #expect((d.first?.time ?? 1) < 0.1 && d.last?.phase == .ended)
        // Pan requiring the swipe's failure holds its events until the bend.
        let e = run(GestureArena(recognizers: [SwipeRecognizer(), PanRecognizer()], rules: ArenaRules(requiresFailureOf: [.pan: [.swipe]])),
                    s.frames([Finger(id: 1, down: 0, up: 0.6, path: path)]))
        let kinds = Set(e.map(\.kind))
        #expect(kinds == [.pan])
        #expect(e.first?.phase == .began)
        #expect(e.last?.phase == .ended)
        // The held began keeps its own time; it comes out with the latest changed, coalesced,
        // when the swipe fails after the bend (t > 0.3).
        #expect((e.first?.time ?? 1) < 0.1)
        #expect(e.count > 2 && e[1].phase == .changed && e[1].time > 0.3)
        #expect(e.count > 2 && (e[1].translationMM?.x ?? 0) > 35)
        #expect(abs((e.last?.translationMM?.y ?? 0) - 40) < 2)
    }

    @Test func edgeSwipeWinsOverSwipeAndPan() {
        var s = Touches(jitterMM: 0.3)
        let e = run(defaultArena(), s.frames([Finger(id: 1, down: 0, up: 0.3, path: line(P(2, 60), P(80, 60), 0, 0.3))]))
        #expect(summary(e) == ["edge_swipe.recognized"])
        #expect(e.first?.edge == .left)
    }

    @Test func oneFingerCircleStaysACircle() {
        var s = Touches(jitterMM: 0.3)
        let e = run(defaultArena(),
                    s.frames([Finger(id: 1, down: 0, up: 1.0, path: circlePath(center: P(100, 60), radius: 30, t0: 0, t1: 1.0))]))
        #expect(summary(completedGestures(e)) == ["circle.recognized"])
        #expect(gaveWay(e, to: .circle))
    }

    @Test func pinchRotateAndPanRunTogether() {
        var s = Touches(jitterMM: 0.2)
        // Two fingers spread from 20 to 80 mm apart, turn 0.8 rad, and drift 40 mm right.
        func pos(_ t: Double, _ sign: Double) -> Point {
            let u = t / 0.6
            let r = 10 + 30 * u, a = 0.8 * u
            return P(80 + 40 * u + sign * r * cosine(a), 60 + sign * r * sine(a))
        }
        let e = run(defaultArena(), s.frames([Finger(id: 1, down: 0, up: 0.6, path: { pos($0, 1) }),
                                              Finger(id: 2, down: 0, up: 0.6, path: { pos($0, -1) })]))
        let kinds = Set(e.map(\.kind))
        #expect(kinds == [.pan, .pinch, .rotate])
        for k in [GestureKind.pan, .pinch, .rotate] {
            #expect(e.first { $0.kind == k }?.phase == .began)
            #expect(e.last { $0.kind == k }?.phase == .ended)
        }
        #expect(abs((e.last { $0.kind == .pinch }?.scale ?? 0) - 4) < 0.2)
        #expect(abs((e.last { $0.kind == .rotate }?.rotation ?? 0) - 0.8) < 0.05)
    }

    @Test func holdThatStartsToMoveIsCancelledAndTheStrokeGoesOn() {
        // Held 0.7 s, then drawn 70 mm to the right: the hold began, is cancelled by the
        // movement (libinput's hold), and the stroke is still recognized for what it is.
        var s = Touches()
        let e = run(defaultArena(), s.frames([Finger(id: 1, down: 0, up: 1.2, path: line(P(50, 60), P(120, 70), 0.7, 1.1))]))
        #expect(summary(e.filter { $0.kind != .pan }) == ["long_press.began", "long_press.cancelled", "swipe.recognized"])
        #expect(gaveWay(e, to: .swipe))
        #expect(e.last?.direction == .right)
    }

    // MARK: Rules in isolation

    @Test func exclusiveFirstClaimWinsAndRivalEventsAreDropped() {
        // Pan and long press with no rules: pan begins first, long press is cancelled.
        var s = Touches()
        let arena = GestureArena(recognizers: [LongPressRecognizer(), PanRecognizer()])
        let e = run(arena, s.frames([Finger(id: 1, down: 0, up: 0.8, path: line(P(50, 60), P(120, 60), 0.1, 0.7))]))
        #expect(Set(e.map(\.kind)) == [.pan])
        // Without pan, the same stroke's early hold is no long press either (moved at 0.1 s);
        // but a held finger then moved is a long press that pan cannot take over.
        var s2 = Touches()
        let arena2 = GestureArena(recognizers: [LongPressRecognizer(), PanRecognizer()])
        let e2 = run(arena2, s2.frames([Finger(id: 1, down: 0, up: 1.0, path: line(P(50, 60), P(120, 60), 0.6, 0.9))]))
        #expect(Set(e2.map(\.kind)) == [.longPress])
    }

    @Test func requiresFailureDropsHeldEventsWhenThePrerequisiteWins() {
        // Pan requires swipe; a straight stroke: pan began (held), swipe recognizes at lift.
        var s = Touches()
        let arena = GestureArena(recognizers: [SwipeRecognizer(), PanRecognizer()],
                                 rules: ArenaRules(requiresFailureOf: [.pan: [.swipe]]))
        let e = run(arena, s.frames([Finger(id: 1, down: 0, up: 0.3, path: line(P(50, 60), P(120, 60), 0, 0.3))]))
        #expect(summary(e) == ["swipe.recognized"])
        // Without the rule pan begins first and the swipe is cancelled.
        var s2 = Touches()
        let arena2 = GestureArena(recognizers: [SwipeRecognizer(), PanRecognizer()])
        let e2 = run(arena2, s2.frames([Finger(id: 1, down: 0, up: 0.3, path: line(P(50, 60), P(120, 60), 0, 0.3))]))
        #expect(Set(e2.map(\.kind)) == [.pan])
    }

    @Test func requiresFailureDeliversHeldEventsWhenThePrerequisiteFails() {
        // Swipe with a 0.2 s limit fails by timer mid-stroke; the held pan comes out then,
        // coalesced: began, then the latest changed.
        var s = Touches()
        let arena = GestureArena(recognizers: [SwipeRecognizer { $0.maxDuration = 0.2 }, PanRecognizer()],
                                 rules: ArenaRules(requiresFailureOf: [.pan: [.swipe]]))
        var out: [GestureEvent] = []
        let frames = s.frames([Finger(id: 1, down: 0, up: 0.5, path: line(P(50, 60), P(120, 60), 0, 0.5))])
        for f in frames where f.time < 0.195 { arena.handle(f) { out.append($0) } }
        #expect(out.isEmpty)
        #expect(arena.deadline == 0.2)
        arena.tick(now: 0.2) { out.append($0) }
        #expect(summary(out) == ["pan.began", "pan.changed"])
        #expect(abs((out.last?.translationMM?.x ?? 0) - 26.6) < 0.01)  // 140 mm/s × 0.19 s
    }

    @Test func simultaneousGroupsOnlyExemptTheirMembers() {
        func twoFingerSpread(_ arena: GestureArena) -> Set<GestureKind> {
            var s = Touches()
            let e = run(arena, s.frames([
                Finger(id: 1, down: 0, up: 0.5, path: line(P(90, 60), P(60, 90), 0, 0.5)),
                Finger(id: 2, down: 0, up: 0.5, path: line(P(110, 60), P(140, 90), 0, 0.5)),
            ]))
            return Set(e.map(\.kind))
        }
        #expect(twoFingerSpread(GestureArena(recognizers: [PinchRecognizer(), PanRecognizer()],
                                             rules: ArenaRules(simultaneous: [[.pan, .pinch]]))) == [.pan, .pinch])
        #expect(twoFingerSpread(GestureArena(recognizers: [PinchRecognizer(), PanRecognizer()])).count == 1)
    }

    @Test func excludedRegionsHideContactsThatBeganThere() {
        let button = Region(name: "button", rect: Rect(minX: 0, minY: 0, maxX: 0.25, maxY: 0.25))
        let tapOnButton = [Finger(id: 1, down: 0, up: 0.08, path: still(P(20, 15)))]  // (0.1, 0.125)
        let tapElsewhere = [Finger(id: 1, down: 0, up: 0.08, path: still(P(100, 60)))]
        func taps(_ rules: ArenaRules, _ fingers: [Finger]) -> Int {
            var s = Touches()
            let arena = GestureArena(recognizers: [TapRecognizer { $0.maxCount = 1 }, LongPressRecognizer()],
                                     rules: rules, regions: [button])
            return run(arena, s.frames(fingers)).filter { $0.kind == .tap }.count
        }
        #expect(taps(ArenaRules(excludedRegions: [.tap: ["button"]]), tapOnButton) == 0)
        #expect(taps(ArenaRules(excludedRegions: [.tap: ["button"]]), tapElsewhere) == 1)
        #expect(taps(ArenaRules(excludedForAll: ["button"]), tapOnButton) == 0)
        #expect(taps(ArenaRules(excludedRegions: [.longPress: ["button"]]), tapOnButton) == 1)
        // A contact that began outside and slides over the region is still seen.
        var s = Touches()
        let arena = GestureArena(recognizers: [SwipeRecognizer()], rules: ArenaRules(excludedForAll: ["button"]),
                                 regions: [button])
        let e = run(arena, s.frames([Finger(id: 1, down: 0, up: 0.3, path: line(P(100, 15), P(10, 15), 0, 0.3))]))
        #expect(e.first?.direction == .left)
        // Two fingers, one on the button: the swipe sees one finger.
        var s2 = Touches()
        let arena2 = GestureArena(recognizers: [SwipeRecognizer()], rules: ArenaRules(excludedRegions: [.swipe: ["button"]]),
                                  regions: [button])
        let e2 = run(arena2, s2.frames([Finger(id: 1, down: 0, up: 0.3, path: still(P(20, 15))),
                                        Finger(id: 2, down: 0, up: 0.3, path: line(P(100, 40), P(100, 110), 0, 0.3))]))
        #expect(e2.first?.fingers == 1)
        #expect(e2.first?.direction == .down)
    }

    @Test func disabledRecognizerSeesNothingAndBlocksNobody() {
        let arena = defaultArena()
        #expect(arena.setEnabled("swipe", false))
        #expect(!arena.isEnabled("swipe"))
        #expect(arena.isEnabled("pan"))
        #expect(!arena.setEnabled("no_such_gesture", false))
        var s = Touches()
        let e = run(arena, s.frames([Finger(id: 1, down: 0, up: 0.3, path: line(P(50, 60), P(120, 60), 0, 0.3))]))
        #expect(Set(e.map(\.kind)) == [.pan])
        // Pan begins without waiting: at the 4 mm slop, 233 mm/s → the frame at 0.02 s.
        #expect((e.first?.time ?? 1) <= 0.021)
        arena.setEnabled("swipe", true)
        var s2 = Touches()
        let e2 = run(arena, s2.frames([Finger(id: 1, down: 0, up: 0.3, path: line(P(50, 60), P(120, 60), 0, 0.3))]))
        #expect(summary(completedGestures(e2)) == ["swipe.recognized"])
        #expect(gaveWay(e2, to: .swipe))
    }

    @Test func disablingAWinnerCancelsIt() {
        var s = Touches()
        let arena = GestureArena(recognizers: [PanRecognizer()])
        var out: [GestureEvent] = []
        let frames = s.frames([Finger(id: 1, down: 0, up: 0.5, path: line(P(50, 60), P(120, 60), 0, 0.5))])
        for f in frames where f.time < 0.2 { arena.handle(f) { out.append($0) } }
        arena.setEnabled("pan", false)
        for f in frames where f.time >= 0.2 { arena.handle(f) { out.append($0) } }
        #expect(out.first?.phase == .began)
        #expect(out.last?.phase == .cancelled)
        #expect(!out.contains { $0.phase == .ended })
    }

    @Test func cancelledContactCancelsTheGesturesItWasPartOf() {
        var s = Touches()
        let arena = defaultArena()
        // Only pan may claim this stroke (the others would hold pan back until lift).
        for name in ["swipe", "circle", "checkmark", "tickle"] { arena.setEnabled(name, false) }
        var frames = s.frames([Finger(id: 1, down: 0, up: 0.5, path: line(P(50, 60), P(120, 60), 0, 0.5))])
        // The tracker reports the contact cancelled (a palm) at 0.3 s; nothing after.
        frames = Array(frames.prefix { $0.time < 0.3 })
        var last = frames[frames.count - 1]
        last.time = 0.3
        last.contacts[0].phase = .cancelled
        frames.append(last)
        let e = run(arena, frames)
        #expect(e.first?.kind == .pan)
        #expect(e.last?.phase == .cancelled)
        #expect(!e.contains { $0.phase == .ended })
        // The arena is ready for the next touch.
        var s2 = Touches()
        let e2 = run(arena, s2.frames([Finger(id: 7, down: 1, up: 1.08, path: still(P(100, 60)))]))
        #expect(summary(e2) == ["tap.recognized"])
    }

    @Test func cancelAllCancelsAndIgnoresTheRestOfTheTouch() {
        var s = Touches()
        let arena = GestureArena(recognizers: [PanRecognizer()])
        var out: [GestureEvent] = []
        let frames = s.frames([Finger(id: 1, down: 0, up: 0.5, path: line(P(50, 60), P(120, 60), 0, 0.5))])
        for f in frames where f.time < 0.2 { arena.handle(f) { out.append($0) } }
        arena.cancelAll(time: 0.2) { out.append($0) }
        for f in frames where f.time >= 0.2 { arena.handle(f) { out.append($0) } }
        #expect(out.last?.phase == .cancelled)
        #expect(out.filter { $0.phase == .cancelled }.count == 1)
        var s2 = Touches()
        let e2 = run(arena, s2.frames([Finger(id: 2, down: 1, up: 1.3, path: line(P(50, 60), P(120, 60), 1, 1.3))]))
        #expect(e2.first?.phase == .began)
    }

    @Test func pendingTapSurvivesANewTouchThatBecomesAPan() {
        // Tap, then within the double-tap window a drag: the tap is reported when the drag
        // rules out a double tap, and the drag is still a pan.
        var s = Touches()
        let arena = defaultArena()
        arena.setEnabled("swipe", false)
        let e = run(arena, s.frames([Finger(id: 1, down: 0, up: 0.08, path: still(P(100, 60)))])
                        + s.frames([Finger(id: 2, down: 0.2, up: 0.6, path: line(P(100, 60), P(160, 60), 0.2, 0.6))]))
        #expect(e.first?.kind == .tap)
        #expect(e.first?.tapCount == 1)
        #expect(Set(e.dropFirst().map(\.kind)) == [.pan])
        #expect(e.last?.phase == .ended)
    }

    @Test func deadlineIsTheEarliestTimerAndNilWhenIdle() {
        var s = Touches()
        let arena = defaultArena()
        #expect(arena.deadline == nil)
        let frames = s.frames([Finger(id: 1, down: 0, up: 0.08, path: still(P(100, 60)))])
        arena.handle(frames[0]) { _ in }
        // Tap's max duration (0.3) is the earliest timer while the finger is down.
        #expect(arena.deadline == 0.3)
        for f in frames.dropFirst() { arena.handle(f) { _ in } }
        #expect(arena.deadline == 0.38)
        var out: [GestureEvent] = []
        arena.tick(now: 0.38) { out.append($0) }
        #expect(summary(out) == ["tap.recognized"])
        #expect(arena.deadline == nil)
    }

    @Test func deadlineFollowsRecognizersThatMoveWithoutAFrame() {
        // The arena keeps each recognizer's deadline from the frames it hands it; one switched
        // off, cancelled or restarted between frames must leave the earliest all the same.
        var s = Touches()
        let arena = defaultArena()
        let frames = s.frames([Finger(id: 1, down: 0, up: 0.08, path: still(P(100, 60)))])
        arena.handle(frames[0]) { _ in }
        #expect(arena.deadline == 0.3)  // tap's max duration
        arena.setEnabled("tap", false, time: 0.01) { _ in }
        #expect(arena.deadline == 0.5)  // long press's min duration is next
        arena.cancelAll(time: 0.02) { _ in }
        #expect(arena.deadline == nil)
        arena.setEnabled("tap", true, time: 0.03) { _ in }
        // A new touch after the ignored one lifts: both timers again, from its start.
        var later = Touches()
        let again = later.frames([Finger(id: 2, down: 1, up: 1.08, path: still(P(100, 60)))])
        arena.handle(frames[frames.count - 1]) { _ in }
        arena.handle(again[0]) { _ in }
        #expect(arena.deadline == 1.3)
    }
}
