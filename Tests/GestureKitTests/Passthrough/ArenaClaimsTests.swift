import Testing
@testable import GestureKit

/// The arena's facts for passthrough: which contacts a winner took, and which are still wanted.
@Suite struct ArenaClaimsTests {
    func drained(_ arena: GestureArena) -> [Int32] {
        var ids: [Int32] = []
        arena.drainClaims { ids.append($0) }
        return ids
    }

    @Test func aDiscreteWinnerTakesTheContactsItSawAndNothingIsContestedAfter() {
        var s = Touches()
        let arena = defaultArena()
        let frames = s.frames([Finger(id: 7, down: 0, up: 1.2, path: circlePath(center: P(100, 60), radius: 25, t0: 0, t1: 1.2))])
        for f in frames.dropLast() { arena.handle(f) { _ in } }
        #expect(drained(arena).isEmpty)
        #expect(arena.isContested(7))
        arena.handle(frames.last!) { _ in }
        #expect(drained(arena).contains(7))
        #expect(drained(arena).isEmpty)  // drained once
    }

    @Test func aContactEveryRecognizerFailedOnIsNoLongerContested() {
        var s = Touches()
        let arena = GestureArena(recognizers: [EdgeSwipeRecognizer()])
        let frames = s.frames([Finger(id: 3, down: 0, up: 0.3, path: line(P(100, 60), P(150, 60), 0, 0.3))])
        arena.handle(frames[0]) { _ in }
        // Not near an edge: the edge swipe fails at once.
        #expect(!arena.isContested(3))
        #expect(drained(arena).isEmpty)
    }

    @Test func aContinuousWinnerTakesContactsThatJoinLater() {
        var s = Touches()
        let arena = GestureArena(recognizers: [PanRecognizer()])
        let frames = s.frames([Finger(id: 1, down: 0, up: 0.5, path: line(P(50, 60), P(120, 60), 0, 0.5)),
                               Finger(id: 2, down: 0.3, up: 0.5, path: still(P(60, 90)))])
        var claimed: [Int32] = []
        for f in frames {
            arena.handle(f) { _ in }
            arena.drainClaims { claimed.append($0) }
        }
        #expect(claimed.contains(1) && claimed.contains(2))
    }

    @Test func aContactNoRecognizerSawIsNotContested() {
        let arena = GestureArena(recognizers: [EdgeSwipeRecognizer()], rules: ArenaRules(excludedForAll: ["all"]),
                                 regions: [Region(name: "all", rect: Rect(minX: 0, minY: 0, maxX: 1, maxY: 1))])
        var s = Touches()
        let frames = s.frames([Finger(id: 4, down: 0, up: 0.1, path: still(P(1, 60)))])
        arena.handle(frames[0]) { _ in }
        #expect(!arena.isContested(4))
    }
}
