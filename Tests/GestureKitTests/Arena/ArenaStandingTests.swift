import Testing
@testable import GestureKit

@Suite struct ArenaStandingTests {
    @Test func impossiblePairsHaveNoNextStanding() {
        #expect(ArenaStanding.lost.after(.win) == nil)
        #expect(ArenaStanding.off.after(.lose) == nil)
        #expect(ArenaStanding.won.after(.claimWhilePrerequisiteUndecided) == nil)
        #expect(ArenaStanding.competing.after(.rejoin) == nil)
        #expect(ArenaStanding.off.after(.switchOff) == nil)
        #expect(ArenaStanding.won.after(.carryOver) == nil)
        // The possible ones, one way through a sequence.
        #expect(ArenaStanding.competing.after(.beginWhileYieldingUndecided) == .provisional)
        #expect(ArenaStanding.provisional.after(.win) == .won)
        #expect(ArenaStanding.carried.after(.rejoin) == .competing)
        #expect(ArenaStanding.off.after(.restart) == .off)
        #expect(ArenaStanding.off.after(.switchOn(midSequence: true)) == .joiningNext)
    }

    @Test func theObserverHearsEveryMoveOfAStraightDrag() {
        var s = Touches()
        let arena = GestureArena(recognizers: [SwipeRecognizer(), PanRecognizer()], rules: ArenaRules(yieldsTo: [.pan: [.swipe]]))
        var moves: [ArenaTransition] = []
        arena.transitionObserver = { moves.append($0) }
        _ = run(arena, s.frames([Finger(id: 1, down: 0, up: 0.3, path: line(P(50, 60), P(120, 60), 0, 0.3))]))
        let pan = moves.filter { $0.recognizer == "pan" }.map { "\($0.from.rawValue)→\($0.to?.rawValue ?? "-")" }
        let swipe = moves.filter { $0.recognizer == "swipe" }.map { "\($0.from.rawValue)→\($0.to?.rawValue ?? "-")" }
        #expect(pan == ["competing→provisional", "provisional→lost", "lost→competing"])
        #expect(swipe == ["competing→won", "won→competing"])
        #expect(moves.allSatisfy { $0.to != nil })
        // In order of time, each from where the previous move of that recognizer left it.
        #expect(zip(moves, moves.dropFirst()).allSatisfy { $0.time <= $1.time })
    }
}
