import Testing
@testable import GestureKit

/// `lingering`: touches the app has together never end as a multi-finger tap when a gesture took
/// them (Chromium's two-finger tap opens a context menu: the first of two lifts within 0.8 s of
/// the second down, neither beyond its slop). The app's touches stay still and lift once
/// `multiTapSeconds` have passed since the last came down.
@Suite struct TouchRelayMultiTapTests {
    static func rules() -> TouchRelay.Rules { TouchRelayTests.liftRules }

    func step(_ r: inout TouchRelay, _ f: TouchFrame, _ facts: Facts) -> [TouchRelay.Output] {
        var out: [TouchRelay.Output] = []
        r.frame(f, claims: facts, out: &out)
        return out
    }

    /// A relay with two fingers down, at 90 and 110 mm (the second a frame after the first).
    func twoDown(_ facts: Facts) -> (TouchRelay, RelayFrames) {
        var r = TouchRelay(rules: Self.rules())
        var s = RelayFrames()
        _ = step(&r, s.frame((1, .began, 90, 60)), facts)
        _ = step(&r, s.frame((1, .stationary, 90, 60), (2, .began, 110, 60)), facts)
        return (r, s)
    }

    func settle(_ r: inout TouchRelay, _ facts: Facts, at now: Double) -> [TouchRelay.Output] {
        var out: [TouchRelay.Output] = []
        r.settle(claims: facts, now: now, out: &out)
        return out
    }

    /// A pinch: while a gesture may take the two touches, their motion is kept from the app (a
    /// browser would zoom by it); taken, they stay where they landed for the app until 0.9 s after
    /// the second came down, then step beyond the slop together and lift.
    @Test func aPinchAGestureTakesNeitherMovesNorTapsForTheApp() {
        var r = TouchRelay(rules: Self.rules())
        var s = RelayFrames()
        let facts = Facts()
        facts.contested = [1, 2]
        #expect(step(&r, s.frame((1, .began, 90, 60)), facts) == [.forward(slot: 0)])
        // One finger: its motion is the app's.
        #expect(step(&r, s.frame((1, .moved, 89, 60)), facts) == [.forward(slot: 0)])
        #expect(step(&r, s.frame((1, .stationary, 89, 60), (2, .began, 110, 60)), facts) == [.forward(slot: 1)])  // 0.03
        #expect(step(&r, s.frame((1, .moved, 87, 60), (2, .moved, 112, 60)), facts) == [])
        facts.claimed = [1, 2]
        facts.contested = []
        #expect(step(&r, s.frame((1, .moved, 86, 60), (2, .moved, 114, 60)), facts) == [])
        #expect(r.state(of: 1) == .lingering && r.state(of: 2) == .lingering)
        #expect(step(&r, s.frame((1, .moved, 80, 60), (2, .moved, 120, 60)), facts) == [])
        #expect(step(&r, s.frame((1, .ended, 80, 60), (2, .stationary, 120, 60)), facts) == [.keep(slot: 0)])
        #expect(step(&r, s.frame((2, .ended, 120, 60)), facts) == [.keep(slot: 1)])
        #expect(r.deadline == 0.03 + TouchRelay.multiTapSeconds)
        #expect(settle(&r, facts, at: 0.9) == [])
        // Where the app has them (89 and 110 mm: their centre left of the screen's), one step to
        // the right that leaves each 6 mm from its down — 7 mm, for the left one's 1 mm away from
        // it — both in one frame (their spread stays); then each lifts in a frame of its own.
        #expect(settle(&r, facts, at: 0.93) == [.move(slot: 0, x: 960, y: 600), .move(slot: 1, x: 1170, y: 600), .sync,
                                                 .lift(slot: 0), .sync, .lift(slot: 1), .sync])
        #expect(r.state(of: 1) == nil && r.state(of: 2) == nil && r.deadline == nil)
    }

    /// Two fingers no gesture takes: their motion kept back while one might, then the app's
    /// touches catch up with the fingers and move with them.
    @Test func motionKeptBackCatchesUpWhenNoGestureCanTakeIt() {
        let facts = Facts()
        facts.contested = [1, 2]
        var (r, s) = twoDown(facts)
        #expect(step(&r, s.frame((1, .moved, 90, 70), (2, .moved, 110, 70)), facts) == [])
        facts.contested = []
        #expect(step(&r, s.frame((1, .moved, 90, 75), (2, .stationary, 110, 70)), facts)
                == [.move(slot: 0, x: 900, y: 750), .sync, .move(slot: 1, x: 1100, y: 700), .sync, .forward(slot: 0)])
        #expect(step(&r, s.frame((1, .moved, 90, 80), (2, .moved, 110, 80)), facts) == [.forward(slot: 0), .forward(slot: 1)])
    }

    /// A two-finger tap recognized at the last lift: the first finger's lift must not reach the
    /// app before the arena has decided (it is the tap's first lift), so it waits while a gesture
    /// may still take it.
    @Test func aTwoFingerTapAGestureTakesIsNoTapForTheApp() {
        var r = TouchRelay(rules: Self.rules())
        var s = RelayFrames()
        let facts = Facts()
        facts.contested = [1, 2]
        _ = step(&r, s.frame((1, .began, 90, 60)), facts)
        _ = step(&r, s.frame((1, .stationary, 90, 60), (2, .began, 110, 60)), facts)  // 0.02
        #expect(step(&r, s.frame((1, .ended, 90, 60), (2, .stationary, 110, 60)), facts) == [.keep(slot: 0)])
        #expect(r.state(of: 1) == .lingering)
        // The tap is recognized (here at the last lift; with double taps, on a timer later).
        #expect(step(&r, s.frame((2, .ended, 110, 60)), facts) == [.keep(slot: 1)])
        facts.claimed = [1, 2]
        facts.contested = []
        #expect(settle(&r, facts, at: 0.35) == [])
        #expect(r.deadline == 0.02 + TouchRelay.multiTapSeconds)
        #expect(settle(&r, facts, at: 0.95) == [.move(slot: 0, x: 840, y: 600), .move(slot: 1, x: 1040, y: 600), .sync,
                                                 .lift(slot: 0), .sync, .lift(slot: 1), .sync])
    }

    /// The same fingers when no gesture takes them: the app's own two-finger tap, its first lift
    /// late by as long as the arena took to say so.
    @Test func aTwoFingerTapNoGestureTakesIsTheApps() {
        let facts = Facts()
        facts.contested = [1, 2]
        var (r, s) = twoDown(facts)
        #expect(step(&r, s.frame((1, .ended, 90, 60), (2, .stationary, 110, 60)), facts) == [.keep(slot: 0)])
        facts.contested = []
        #expect(settle(&r, facts, at: 0.1) == [.lift(slot: 0), .sync])
        #expect(step(&r, s.frame((2, .ended, 110, 60)), facts) == [.forward(slot: 1)])
        #expect(r.deadline == nil)
    }

    /// Lifts that no gesture can take any more go out as they come, together or not.
    @Test func uncontestedLiftsAreNotHeld() {
        let facts = Facts()
        var (r, s) = twoDown(facts)
        #expect(step(&r, s.frame((1, .ended, 90, 60), (2, .ended, 110, 60)), facts) == [.forward(slot: 0), .forward(slot: 1)])
    }

    /// A new finger landing in a lingering touch's slot: the clone's slot must be free, so the
    /// lingering touches end first (stepping beyond the slop), then the new one begins.
    @Test func aNewTouchInALingeringSlotEndsTheLingeringFirst() {
        let facts = Facts()
        var (r, s) = twoDown(facts)
        facts.claimed = [1, 2]
        #expect(step(&r, s.frame((1, .ended, 90, 60), (2, .ended, 110, 60)), facts) == [.keep(slot: 0), .keep(slot: 1)])
        var f = s.frame()
        f.contacts.append(Contact(id: 3, slot: 0, phase: .began, raw: P(1000, 600), mm: P(100, 60), position: P(0.5, 0.5)))
        #expect(step(&r, f, facts) == [.move(slot: 0, x: 840, y: 600), .move(slot: 1, x: 1040, y: 600), .sync,
                                       .lift(slot: 0), .sync, .lift(slot: 1), .sync, .forward(slot: 0)])
    }

    /// A drop (or the relay closing) ends lingering touches at once: the app must be consistent.
    @Test func aDropLiftsLingeringTouches() {
        let facts = Facts()
        var (r, s) = twoDown(facts)
        facts.claimed = [1, 2]
        _ = step(&r, s.frame((1, .moved, 91, 60), (2, .moved, 111, 60)), facts)
        var out: [TouchRelay.Output] = []
        r.drop(out: &out)
        #expect(out == [.lift(slot: 0), .lift(slot: 1), .sync])
        #expect(r.deadline == nil)
    }

    /// Ending `.cancel`: a cancelled touch is no tap to any toolkit; nothing lingers.
    @Test func cancellingEndsTakenTouchesAtOnce() {
        var r = TouchRelay(rules: .init(ending: .cancel))
        var s = RelayFrames()
        let facts = Facts()
        facts.contested = [1, 2]
        _ = step(&r, s.frame((1, .began, 90, 60)), facts)
        _ = step(&r, s.frame((1, .stationary, 90, 60), (2, .began, 110, 60)), facts)
        #expect(step(&r, s.frame((1, .ended, 90, 60), (2, .stationary, 110, 60)), facts) == [.forward(slot: 0)])
        facts.claimed = [2]
        #expect(step(&r, s.frame((2, .moved, 111, 60)), facts) == [.cancel(slot: 1), .sync])
    }
}
