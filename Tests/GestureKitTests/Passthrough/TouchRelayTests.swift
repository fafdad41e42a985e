import Testing
@testable import GestureKit

/// The arena's facts as plain values.
final class Facts: ContactClaims {
    var claimed: [Int32] = []
    var contested: Set<Int32> = []
    func drainClaims(_ body: (Int32) -> Void) {
        for id in claimed { body(id) }
        claimed.removeAll()
    }
    func isContested(_ id: Int32) -> Bool { contested.contains(id) }
}

/// Frames with raw coordinates = mm × 10, on a 200 × 120 mm surface.
struct RelayFrames {
    let surface = Surface(widthMM: 200, heightMM: 120, isDirect: true)
    var time = 0.0

    mutating func frame(_ contacts: (Int32, ContactPhase, Double, Double)...) -> TouchFrame {
        time += 0.01
        var f = TouchFrame(time: time, surface: surface)
        for (id, phase, x, y) in contacts {
            f.contacts.append(Contact(id: id, slot: id - 1, phase: phase, raw: P(x * 10, y * 10), mm: P(x, y),
                                      position: surface.normalized(P(x, y))))
        }
        return f
    }
}

@Suite struct TouchRelayTests {
    func step(_ r: inout TouchRelay, _ f: TouchFrame, _ facts: Facts) -> [TouchRelay.Output] {
        var out: [TouchRelay.Output] = []
        r.frame(f, claims: facts, out: &out)
        return out
    }

    @Test func aTouchNoGestureTakesIsForwardedFrameByFrame() {
        var r = TouchRelay(rules: .init())
        var s = RelayFrames()
        let facts = Facts()
        facts.contested = [1]
        #expect(step(&r, s.frame((1, .began, 100, 60)), facts) == [.forward(slot: 0)])
        #expect(step(&r, s.frame((1, .stationary, 100, 60)), facts) == [])
        #expect(step(&r, s.frame((1, .moved, 101, 60)), facts) == [.forward(slot: 0)])
        #expect(step(&r, s.frame((1, .ended, 101, 60)), facts) == [.forward(slot: 0)])
        #expect(r.state(of: 1) == nil)
    }

    @Test func aWinnersTouchIsCancelledBeforeItsReleaseAndNotForwardedAfter() {
        var r = TouchRelay(rules: .init())
        var s = RelayFrames()
        let facts = Facts()
        _ = step(&r, s.frame((1, .began, 100, 60)), facts)
        _ = step(&r, s.frame((1, .moved, 110, 60)), facts)
        facts.claimed = [1]
        // A circle is recognized at lift: the palm goes out in a frame before the release.
        #expect(step(&r, s.frame((1, .ended, 100, 60)), facts) == [.cancel(slot: 0), .sync])
        #expect(r.state(of: 1) == nil)

        _ = step(&r, s.frame((2, .began, 100, 60)), facts)
        facts.claimed = [2]
        #expect(step(&r, s.frame((2, .moved, 120, 60)), facts) == [.cancel(slot: 1), .sync])
        #expect(r.state(of: 2) == .cancelled)
        #expect(step(&r, s.frame((2, .moved, 130, 60)), facts) == [])
        #expect(step(&r, s.frame((2, .ended, 130, 60)), facts) == [])
    }

    // Ending `.lift` (the daemon's default: most compositors drop TOUCH_CANCEL).

    @Test func aWinnersTouchBeyondTheSlopLiftsForTheAppAndNothingMoreGoesOut() {
        var r = TouchRelay(rules: .init(ending: .lift))
        var s = RelayFrames()
        let facts = Facts()
        _ = step(&r, s.frame((1, .began, 100, 60)), facts)
        _ = step(&r, s.frame((1, .moved, 110, 60)), facts)
        facts.claimed = [1]
        #expect(step(&r, s.frame((1, .moved, 120, 60)), facts) == [.lift(slot: 0), .sync])
        #expect(r.state(of: 1) == .cancelled)
        #expect(step(&r, s.frame((1, .moved, 130, 60)), facts) == [])
        #expect(step(&r, s.frame((1, .ended, 130, 60)), facts) == [])
        #expect(r.state(of: 1) == nil)
    }

    @Test func aWinnersTouchWithinTheSlopGoesOnUntilBeyondItThenLiftsInAFrameOfItsOwn() {
        var r = TouchRelay(rules: .init(ending: .lift))
        var s = RelayFrames()
        let facts = Facts()
        _ = step(&r, s.frame((1, .began, 100, 60)), facts)
        _ = step(&r, s.frame((1, .moved, 102, 60)), facts)
        facts.claimed = [1]
        // A lift at 2 mm would be a tap: the app keeps the touch while it is within 5 mm.
        #expect(step(&r, s.frame((1, .moved, 104, 60)), facts) == [.forward(slot: 0)])
        #expect(r.state(of: 1) == .ending)
        #expect(step(&r, s.frame((1, .stationary, 104, 60)), facts) == [])
        // Beyond the slop: the move goes out, then the lift, so the app's touch ends as a drag.
        #expect(step(&r, s.frame((1, .moved, 106, 60)), facts) == [.forward(slot: 0), .sync, .lift(slot: 0)])
        #expect(r.state(of: 1) == .cancelled)
        #expect(step(&r, s.frame((1, .moved, 120, 60)), facts) == [])
        #expect(step(&r, s.frame((1, .ended, 120, 60)), facts) == [])
    }

    /// The raw x axis of RelayFrames' 200 mm surface (raw = mm × 10).
    static let rawX = TouchRelay.RawAxis(centre: 1000, unitsPerMM: 10)

    /// The default ending, with the surface's x axis (a touch within the slop can step beyond it).
    static var liftRules: TouchRelay.Rules {
        var rules = TouchRelay.Rules(ending: .lift)
        rules.rawX = rawX
        return rules
    }

    @Test func aWinnersTouchWithinTheSlopStepsBeyondItAtOnceThenLifts() {
        var r = TouchRelay(rules: Self.liftRules)
        var s = RelayFrames()
        let facts = Facts()
        _ = step(&r, s.frame((1, .began, 50, 60)), facts)
        facts.claimed = [1]
        // A lift at 1 mm would be a tap, and a touch left resting the app's long press: 6 mm
        // from its down, towards the middle, then the lift, at once.
        #expect(step(&r, s.frame((1, .moved, 51, 60)), facts) == [.move(slot: 0, x: 560, y: 600), .sync, .lift(slot: 0), .sync])
        #expect(r.state(of: 1) == .cancelled)
        #expect(step(&r, s.frame((1, .ended, 51, 60)), facts) == [])
        #expect(r.state(of: 1) == nil)
        // Right of the middle, it steps left.
        _ = step(&r, s.frame((2, .began, 150, 60)), facts)
        facts.claimed = [2]
        #expect(step(&r, s.frame((2, .stationary, 150, 60)), facts) == [.move(slot: 1, x: 1440, y: 600), .sync, .lift(slot: 1), .sync])
        #expect(step(&r, s.frame((2, .ended, 150, 60)), facts) == [])
    }

    @Test func aWinnersTouchWhoseFingerLiftsWithinTheSlopStepsBeyondItThenLifts() {
        var r = TouchRelay(rules: Self.liftRules)
        var s = RelayFrames()
        let facts = Facts()
        _ = step(&r, s.frame((1, .began, 50, 60)), facts)
        _ = step(&r, s.frame((1, .moved, 51, 60)), facts)
        // Taken at its lift (a shape is decided there): the release would be a tap.
        facts.claimed = [1]
        #expect(step(&r, s.frame((1, .ended, 51, 60)), facts) == [.move(slot: 0, x: 560, y: 600), .sync, .lift(slot: 0), .sync])
        #expect(r.state(of: 1) == nil)
    }

    @Test func withoutTheRawAxisAWinnersTouchWithinTheSlopEndsWithItsOwnRelease() {
        var r = TouchRelay(rules: .init(ending: .lift))
        var s = RelayFrames()
        let facts = Facts()
        _ = step(&r, s.frame((1, .began, 100, 60)), facts)
        facts.claimed = [1]
        #expect(step(&r, s.frame((1, .moved, 101, 60)), facts) == [.forward(slot: 0)])
        #expect(step(&r, s.frame((1, .ended, 101, 60)), facts) == [.forward(slot: 0)])
        #expect(r.state(of: 1) == nil)
    }

    @Test func aWinnerAtDelayFingersKeepsTheAppsTwoTouchesStillUntilTheyCannotBeATap() {
        var rules = TouchRelay.Rules(ending: .lift, delayFingers: 3)
        rules.rawX = Self.rawX
        var r = TouchRelay(rules: rules)
        var s = RelayFrames()
        let facts = Facts()
        facts.contested = [1, 2, 3]
        _ = step(&r, s.frame((1, .began, 100, 60)), facts)
        _ = step(&r, s.frame((1, .moved, 110, 60), (2, .began, 50, 60)), facts)
        // The third finger: the app's two touches stay where they are (lifting now, they could be
        // a two-finger tap), the third is held.
        #expect(step(&r, s.frame((1, .stationary, 110, 60), (2, .stationary, 50, 60), (3, .began, 70, 60)), facts) == [])
        #expect(r.state(of: 1) == .lingering && r.state(of: 2) == .lingering && r.state(of: 3) == .held)
        #expect(step(&r, s.frame((1, .moved, 120, 60), (2, .moved, 60, 60), (3, .moved, 80, 60)), facts) == [])
        #expect(step(&r, s.frame((1, .ended, 120, 60), (2, .ended, 60, 60), (3, .ended, 80, 60)), facts)
                == [.keep(slot: 0), .keep(slot: 1)])
        // 0.9 s after the app's second touch came down (0.02): touch 2 is still within the slop,
        // so both step 6 mm together towards the middle (a translation: no pinch), then lift.
        #expect(r.deadline == 0.02 + TouchRelay.multiTapSeconds)
        var out: [TouchRelay.Output] = []
        r.settle(claims: facts, now: 0.5, out: &out)
        #expect(out == [])
        r.settle(claims: facts, now: 0.93, out: &out)
        #expect(out == [.move(slot: 0, x: 1160, y: 600), .move(slot: 1, x: 560, y: 600), .sync,
                        .lift(slot: 0), .sync, .lift(slot: 1), .sync])
        #expect(r.state(of: 1) == nil && r.state(of: 2) == nil && r.deadline == nil)
    }

    @Test func aDropLiftsEvenATouchWithinTheSlop() {
        var r = TouchRelay(rules: .init(ending: .lift))
        var s = RelayFrames()
        let facts = Facts()
        _ = step(&r, s.frame((1, .began, 100, 60)), facts)
        var out: [TouchRelay.Output] = []
        r.drop(out: &out)
        #expect(out == [.lift(slot: 0), .sync])
    }

    /// A finger resting on a panel that vanished did not tap: under "lift" its touch steps beyond
    /// the slop, then lifts; one that moved beyond it lifts where it is; under "cancel" both cancel.
    @Test func aPanelGoneEndsTheAppsTouchesNeverAsATap() {
        var r = TouchRelay(rules: Self.liftRules)
        var s = RelayFrames()
        let facts = Facts()
        facts.contested = [1, 2]
        _ = step(&r, s.frame((1, .began, 50, 60)), facts)
        _ = step(&r, s.frame((1, .stationary, 50, 60), (2, .began, 100, 60)), facts)
        _ = step(&r, s.frame((1, .stationary, 50, 60), (2, .moved, 120, 60)), facts)
        var out: [TouchRelay.Output] = []
        r.drop(neverATap: true, out: &out)
        #expect(out == [.move(slot: 0, x: 560, y: 600), .sync, .lift(slot: 0), .lift(slot: 1), .sync])
        #expect(step(&r, s.frame((3, .began, 80, 60)), facts) == [], "nothing more of the sequence reaches the app")

        var cancelling = TouchRelay(rules: .init(ending: .cancel))
        _ = step(&cancelling, s.frame((1, .began, 50, 60)), facts)
        out = []
        cancelling.drop(neverATap: true, out: &out)
        #expect(out == [.cancel(slot: 0), .sync])
    }

    @Test func withoutCancelsTouchesAWinnersTouchGoesOn() {
        var r = TouchRelay(rules: .init(cancelsTouches: false))
        var s = RelayFrames()
        let facts = Facts()
        _ = step(&r, s.frame((1, .began, 100, 60)), facts)
        facts.claimed = [1]
        #expect(step(&r, s.frame((1, .moved, 110, 60)), facts) == [.forward(slot: 0)])
        #expect(r.state(of: 1) == .forwarding)
    }

    @Test func aTouchInTheEdgeBandIsHeldThenDeliveredInOrderWhenNoRecognizerWantsIt() {
        var r = TouchRelay(rules: .init(edgeDepthMM: 6))
        var s = RelayFrames()
        let facts = Facts()
        facts.contested = [1]
        #expect(step(&r, s.frame((1, .began, 3, 60)), facts) == [])
        #expect(r.state(of: 1) == .held)
        #expect(step(&r, s.frame((1, .moved, 4, 60)), facts) == [])
        facts.contested = []
        #expect(step(&r, s.frame((1, .moved, 5, 61)), facts)
            == [.begin(slot: 0, x: 30, y: 600), .sync, .move(slot: 0, x: 40, y: 600), .sync, .move(slot: 0, x: 50, y: 610), .sync])
        #expect(r.state(of: 1) == .forwarding)
        #expect(step(&r, s.frame((1, .ended, 5, 61)), facts) == [.forward(slot: 0)])
    }

    @Test func aHeldTapIsDeliveredWholeWhenTheLastRecognizerFailsAfterItsLift() {
        var r = TouchRelay(rules: .init(delayRects: [Rect(minX: 0.9, minY: 0, maxX: 1, maxY: 1)]))
        var s = RelayFrames()
        let facts = Facts()
        facts.contested = [1]
        #expect(step(&r, s.frame((1, .began, 190, 60)), facts) == [])
        #expect(step(&r, s.frame((1, .ended, 190, 60)), facts) == [])
        #expect(r.state(of: 1) == .held)
        facts.contested = []
        var out: [TouchRelay.Output] = []
        r.settle(claims: facts, out: &out)
        #expect(out == [.begin(slot: 0, x: 1900, y: 600), .sync, .move(slot: 0, x: 1900, y: 600), .sync, .lift(slot: 0), .sync])
        #expect(r.state(of: 1) == nil)
    }

    @Test func aHeldTouchAGestureTakesIsNeverShown() {
        var r = TouchRelay(rules: .init(edgeDepthMM: 6))
        var s = RelayFrames()
        let facts = Facts()
        facts.contested = [1]
        _ = step(&r, s.frame((1, .began, 2, 60)), facts)
        _ = step(&r, s.frame((1, .moved, 20, 60)), facts)
        facts.claimed = [1]
        #expect(step(&r, s.frame((1, .moved, 30, 60)), facts) == [])
        #expect(r.state(of: 1) == .withheld)
        facts.contested = []
        #expect(step(&r, s.frame((1, .ended, 40, 60)), facts) == [])
        #expect(r.state(of: 1) == nil)
    }

    @Test func outsideTheDelayRegionsNothingIsHeld() {
        var r = TouchRelay(rules: .init(delayRects: [Rect(minX: 0, minY: 0, maxX: 0.1, maxY: 0.1)], edgeDepthMM: 6))
        var s = RelayFrames()
        let facts = Facts()
        facts.contested = [1]
        #expect(step(&r, s.frame((1, .began, 100, 60)), facts) == [.forward(slot: 0)])
    }

    @Test func delayFingersCancelsWhatTheAppHadAndHoldsTheRest() {
        var r = TouchRelay(rules: .init(delayFingers: 3))
        var s = RelayFrames()
        let facts = Facts()
        facts.contested = [1, 2, 3, 4]
        #expect(step(&r, s.frame((1, .began, 50, 60)), facts) == [.forward(slot: 0)])
        #expect(step(&r, s.frame((1, .stationary, 50, 60), (2, .began, 70, 60)), facts) == [.forward(slot: 1)])
        #expect(step(&r, s.frame((1, .stationary, 50, 60), (2, .stationary, 70, 60), (3, .began, 90, 60)), facts)
            == [.cancel(slot: 0), .cancel(slot: 1), .sync])
        #expect(r.state(of: 3) == .held)
        #expect(step(&r, s.frame((1, .moved, 50, 70), (2, .moved, 70, 70), (3, .moved, 90, 70), (4, .began, 110, 60)), facts) == [])
        #expect(r.state(of: 4) == .held)
        facts.claimed = [1, 2, 3, 4]
        #expect(step(&r, s.frame((1, .ended, 50, 70), (2, .ended, 70, 70), (3, .ended, 90, 70), (4, .ended, 110, 60)), facts) == [])
        // The next sequence starts afresh.
        #expect(step(&r, s.frame((5, .began, 50, 60)), facts) == [.forward(slot: 4)])
    }

    @Test func aDropCancelsTheAppsTouchesAndWithholdsNewOnesUntilAllAreUp() {
        var r = TouchRelay(rules: .init())
        var s = RelayFrames()
        let facts = Facts()
        _ = step(&r, s.frame((1, .began, 50, 60)), facts)
        var out: [TouchRelay.Output] = []
        r.drop(out: &out)
        #expect(out == [.cancel(slot: 0), .sync])
        #expect(step(&r, s.frame((1, .moved, 55, 60), (2, .began, 80, 60)), facts) == [])
        #expect(step(&r, s.frame((1, .ended, 55, 60), (2, .ended, 80, 60)), facts) == [])
        #expect(step(&r, s.frame((3, .began, 50, 60)), facts) == [.forward(slot: 2)])
    }

    @Test func aHeldPathIsBounded() {
        var r = TouchRelay(rules: .init(edgeDepthMM: 6))
        var s = RelayFrames()
        let facts = Facts()
        facts.contested = [1]
        _ = step(&r, s.frame((1, .began, 2, 60)), facts)
        for i in 0..<(TouchRelay.maxHeldSamples + 100) { _ = step(&r, s.frame((1, .moved, 2 + Double(i % 50), 60)), facts) }
        facts.contested = []
        let out = step(&r, s.frame((1, .moved, 100, 60)), facts)
        #expect(out.count == TouchRelay.maxHeldSamples * 2)
        #expect(out[out.count - 2] == .move(slot: 0, x: 1000, y: 600))
    }

    // MARK: With the arena's own claims

    func passthroughArena() -> GestureArena {
        let names = ["circle", "edge_swipe", "swipe"]
        let recognizers = RecognizerCatalog.all.filter { names.contains($0.name) }.map {
            $0.make($0.name == "swipe" ? ["min_fingers": 3] : [:])
        }
        return GestureArena(recognizers: recognizers, rules: RecognizerCatalog.defaultRules)
    }

    func relay(_ frames: [TouchFrame], rules: TouchRelay.Rules) -> (outputs: [TouchRelay.Output], gestures: [String]) {
        let arena = passthroughArena()
        var r = TouchRelay(rules: rules)
        var out: [TouchRelay.Output] = []
        var gestures: [GestureEvent] = []
        for f in frames {
            DeadlineDriver.fire(until: f.time, next: { arena.deadline }) { d in
                arena.tick(now: d) { gestures.append($0) }
                r.settle(claims: arena, out: &out)
            }
            arena.handle(f) { gestures.append($0) }
            r.frame(f, claims: arena, out: &out)
        }
        DeadlineDriver.fire(until: .infinity, next: { arena.deadline }) { d in
            arena.tick(now: d) { gestures.append($0) }
            r.settle(claims: arena, out: &out)
        }
        return (out, summary(gestures))
    }

    @Test func withTheArenaACircleIsCancelledAnEdgeSwipeWithheldAMiddleStrokeForwarded() {
        var s = Touches()
        let rules = TouchRelay.Rules(edgeDepthMM: 6)
        let circle = relay(s.frames([Finger(id: 1, down: 0, up: 1.2, path: circlePath(center: P(100, 60), radius: 25, t0: 0, t1: 1.2))]), rules: rules)
        #expect(circle.gestures == ["circle.recognized"])
        #expect(circle.outputs.suffix(2) == [.cancel(slot: 1), .sync])
        #expect(circle.outputs.dropLast(2).allSatisfy { $0 == .forward(slot: 1) })

        let edge = relay(s.frames([Finger(id: 1, down: 0, up: 0.4, path: line(P(2, 60), P(60, 60), 0, 0.4))]), rules: rules)
        #expect(edge.gestures == ["edge_swipe.recognized"])
        #expect(edge.outputs.isEmpty)

        let middle = relay(s.frames([Finger(id: 1, down: 0, up: 0.4, path: line(P(70, 60), P(128, 60), 0, 0.4))]), rules: rules)
        #expect(middle.gestures.isEmpty)
        #expect(middle.outputs.count == 41 && middle.outputs.allSatisfy { $0 == .forward(slot: 1) })

        let tap = relay(s.frames([Finger(id: 1, down: 0, up: 0.06, path: still(P(3, 60)))]), rules: rules)
        #expect(tap.gestures.isEmpty)
        #expect(tap.outputs.first == .begin(slot: 1, x: 0, y: 0))
        #expect(tap.outputs.suffix(2) == [.lift(slot: 1), .sync])
    }
}

/// `app_fingers`: the app's finger count.
extension TouchRelayTests {
    @Test func aSecondFingerEndsTheAppsFirstAndNothingMoreOfTheSequenceReachesIt() {
        var rules = TouchRelay.Rules()
        rules.appFingers = 1
        var r = TouchRelay(rules: rules)
        var s = RelayFrames()
        let facts = Facts()
        #expect(step(&r, s.frame((1, .began, 100, 60)), facts) == [.forward(slot: 0)])
        #expect(step(&r, s.frame((1, .moved, 101, 60)), facts) == [.forward(slot: 0)])
        // The second finger of a pinch: the app's touch ends (a frame of its own), the new one is withheld.
        #expect(step(&r, s.frame((1, .moved, 102, 60), (2, .began, 140, 60)), facts) == [.cancel(slot: 0), .sync])
        #expect(r.state(of: 1) == .cancelled && r.state(of: 2) == .withheld)
        #expect(step(&r, s.frame((1, .moved, 90, 60), (2, .moved, 150, 60)), facts) == [])
        // One finger lifts: the sequence stays gestured's, and a finger landing now is withheld too.
        #expect(step(&r, s.frame((1, .moved, 90, 60), (2, .ended, 150, 60)), facts) == [])
        #expect(step(&r, s.frame((1, .stationary, 90, 60), (3, .began, 50, 60)), facts) == [])
        #expect(r.state(of: 3) == .withheld)
        #expect(step(&r, s.frame((1, .ended, 90, 60), (3, .ended, 50, 60)), facts) == [])
        // All up: the next one-finger touch is the app's again.
        #expect(step(&r, s.frame((4, .began, 100, 60)), facts) == [.forward(slot: 3)])
    }

    @Test func aTwoFingerTapIsNoTapForTheApp() {
        var rules = TouchRelay.Rules(ending: .lift)
        rules.appFingers = 1
        rules.rawX = TouchRelayTests.rawX
        var r = TouchRelay(rules: rules)
        var s = RelayFrames()
        let facts = Facts()
        #expect(step(&r, s.frame((1, .began, 100, 60)), facts) == [.forward(slot: 0)])
        // The app's touch is its only one: it steps beyond the slop and lifts at once.
        #expect(step(&r, s.frame((1, .stationary, 100, 60), (2, .began, 120, 60)), facts)
                == [.move(slot: 0, x: 940, y: 600), .sync, .lift(slot: 0), .sync])
        #expect(step(&r, s.frame((1, .ended, 100, 60), (2, .ended, 120, 60)), facts) == [])
    }

    @Test func twoFingersLandingTogetherNeverReachTheAppAndHeldTouchesAreNotDelivered() {
        var rules = TouchRelay.Rules(edgeDepthMM: 6)
        rules.appFingers = 1
        var r = TouchRelay(rules: rules)
        var s = RelayFrames()
        let facts = Facts()
        facts.contested = [1]
        #expect(step(&r, s.frame((1, .began, 2, 60)), facts) == [])
        #expect(r.state(of: 1) == .held)
        #expect(step(&r, s.frame((1, .stationary, 2, 60), (2, .began, 100, 60), (3, .began, 120, 60)), facts) == [])
        facts.contested = []
        #expect(step(&r, s.frame((1, .ended, 2, 60), (2, .ended, 100, 60), (3, .ended, 120, 60)), facts) == [])
        #expect(r.state(of: 1) == nil)
    }

    @Test func withinTheCountEveryFingerIsTheApps() {
        var rules = TouchRelay.Rules()
        rules.appFingers = 2
        var r = TouchRelay(rules: rules)
        var s = RelayFrames()
        let facts = Facts()
        #expect(step(&r, s.frame((1, .began, 100, 60), (2, .began, 140, 60)), facts) == [.forward(slot: 0), .forward(slot: 1)])
        #expect(step(&r, s.frame((1, .moved, 90, 60), (2, .moved, 150, 60)), facts) == [.forward(slot: 0), .forward(slot: 1)])
        #expect(step(&r, s.frame((1, .stationary, 90, 60), (2, .stationary, 150, 60), (3, .began, 50, 60)), facts)
                == [.cancel(slot: 0), .cancel(slot: 1), .sync])
    }
}

/// A contact the app has that turns into a palm on the device side (its tool, or its size).
extension TouchRelayTests {
    @Test func aPalmTheAppHadEndsForItAsATakenTouch() {
        var r = TouchRelay(rules: .init())
        var s = RelayFrames()
        let facts = Facts()
        _ = step(&r, s.frame((1, .began, 100, 60), (2, .began, 150, 60)), facts)
        #expect(step(&r, s.frame((1, .cancelled, 100, 60), (2, .moved, 151, 60)), facts) == [.cancel(slot: 0), .sync, .forward(slot: 1)])
        #expect(r.state(of: 1) == nil && r.state(of: 2) == .forwarding)
    }
}
