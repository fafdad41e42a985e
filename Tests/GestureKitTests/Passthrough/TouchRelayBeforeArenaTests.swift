import Testing
@testable import GestureKit

/// The lift written before the arena judges it (TouchRelay.decidesWithoutArena, Passthrough's
/// early write) against the plain order (the arena first, then the relay with its claims): the
/// app sees the same, claimed at the lift or not, within the slop or beyond it.
@Suite struct TouchRelayBeforeArenaTests {
    /// What the app sees of a step: a contact's forwarded lift and a lift of it are the same
    /// release; frame ends are the writer's.
    static func seen(_ outputs: [TouchRelay.Output]) -> [TouchRelay.Output] {
        outputs.compactMap { o in
            switch o {
            case .sync: nil
            case .forward(let slot): .lift(slot: slot)
            default: o
            }
        }
    }

    /// A one-finger stroke to `toX` mm, then its lift with `claimed` claimed by the arena at the
    /// lift: the plain order's outputs at the lift, and the early order's (frame, then settle).
    static func lift(ending: TouchRelay.Ending, toX: Double, claimed: Bool) -> (plain: [TouchRelay.Output], early: [TouchRelay.Output]?) {
        func run(early: Bool) -> [TouchRelay.Output]? {
            var r = TouchRelay(rules: .init(ending: ending))
            var s = RelayFrames()
            let facts = Facts()
            var out: [TouchRelay.Output] = []
            r.frame(s.frame((1, .began, 100, 60)), claims: facts, out: &out)
            r.frame(s.frame((1, .moved, toX, 60)), claims: facts, out: &out)
            out.removeAll()
            let up = s.frame((1, .ended, toX, 60))
            if early {
                guard r.decidesWithoutArena(up) else { return nil }
                r.frame(up, claims: TouchRelay.NoClaims(), out: &out)
                if claimed { facts.claimed = [1] }  // the arena judges the lift after the write
                r.settle(claims: facts, out: &out)
            } else {
                if claimed { facts.claimed = [1] }
                r.frame(up, claims: facts, out: &out)
            }
            #expect(r.state(of: 1) == nil)
            return out
        }
        return (run(early: false)!, run(early: true))
    }

    @Test(arguments: [(103.0, false), (103.0, true), (130.0, false), (130.0, true)])
    func aLiftWrittenFirstIsTheLiftTheAppWouldHaveSeen(toX: Double, claimed: Bool) throws {
        let (plain, early) = Self.lift(ending: .lift, toX: toX, claimed: claimed)
        let e = try #require(early, "the lift of the app's one touch is decided without the arena")
        #expect(Self.seen(e) == Self.seen(plain) && Self.seen(e) == [.lift(slot: 0)], "plain \(plain), early \(e)")
    }

    @Test func aLiftThatMayBeCancelledWaitsForTheArena() {
        // Ending `.cancel`: a shape recognized at the lift turns the touch into a palm first.
        #expect(Self.lift(ending: .cancel, toX: 130, claimed: true).early == nil)
        // Claims that cancel nothing cannot change the lift.
        var r = TouchRelay(rules: .init(cancelsTouches: false, ending: .cancel))
        var s = RelayFrames()
        var out: [TouchRelay.Output] = []
        r.frame(s.frame((1, .began, 100, 60)), claims: Facts(), out: &out)
        #expect(r.decidesWithoutArena(s.frame((1, .ended, 100, 60))))
    }

    @Test func aLiftWithinTheSlopThatMayStepAwayWaitsForTheArena() {
        // With the device's axis known, a touch taken at its lift within the slop steps away
        // (`escape`: no tap for the app), which the arena decides: it cannot go first.
        var rules = TouchRelay.Rules(ending: .lift)
        rules.rawX = .init(centre: 100, unitsPerMM: 1)
        for (toX, early) in [(103.0, false), (130.0, true)] {
            var r = TouchRelay(rules: rules)
            var s = RelayFrames()
            var out: [TouchRelay.Output] = []
            r.frame(s.frame((1, .began, 100, 60)), claims: Facts(), out: &out)
            r.frame(s.frame((1, .moved, toX, 60)), claims: Facts(), out: &out)
            #expect(r.decidesWithoutArena(s.frame((1, .ended, toX, 60))) == early, "to \(toX) mm")
        }
    }

    @Test func onlyFramesThatLiftEveryTouchOfTheAppsGoFirst() {
        var r = TouchRelay(rules: .init(ending: .lift, edgeDepthMM: 6))
        var s = RelayFrames()
        var out: [TouchRelay.Output] = []
        let facts = Facts()
        #expect(!r.decidesWithoutArena(s.frame((1, .began, 100, 60))))  // nothing tracked: a new touch
        r.frame(s.frame((1, .began, 100, 60)), claims: facts, out: &out)
        #expect(!r.decidesWithoutArena(s.frame((1, .moved, 110, 60))))  // a move: a claim would lift it
        r.frame(s.frame((1, .stationary, 100, 60), (2, .began, 120, 60)), claims: facts, out: &out)
        #expect(!r.decidesWithoutArena(s.frame((1, .ended, 100, 60), (2, .stationary, 120, 60))))  // one of two lifts
        // Both lift: a multi-finger tap a gesture may take (TouchRelay's `lingering`).
        #expect(!r.decidesWithoutArena(s.frame((1, .ended, 100, 60), (2, .ended, 120, 60))))
        #expect(!r.decidesWithoutArena(s.frame((1, .cancelled, 100, 60), (2, .ended, 120, 60))))  // a palm
        // A touch held in the edge band: what it gets depends on the arena.
        var h = TouchRelay(rules: .init(ending: .lift, edgeDepthMM: 6))
        facts.contested = [3]
        h.frame(s.frame((3, .began, 2, 60)), claims: facts, out: &out)
        #expect(h.state(of: 3) == .held)
        #expect(!h.decidesWithoutArena(s.frame((3, .ended, 2, 60))))
        // The relay closed (a mode gives the app nothing): withheld, never early.
        var c = TouchRelay(rules: .init(ending: .lift))
        c.close(out: &out)
        c.frame(s.frame((4, .began, 100, 60)), claims: facts, out: &out)
        #expect(!c.decidesWithoutArena(s.frame((4, .ended, 100, 60))))
    }
}
