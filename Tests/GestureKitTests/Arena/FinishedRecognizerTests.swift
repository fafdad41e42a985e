import Testing
@testable import GestureKit

/// A recognizer that has finished is not handed frames until it restarts (nothing changes it
/// before its reset), but what the arena owes it still happens: a winner takes the contacts
/// that land later, a cancellation moves it, and the next sequence finds it fresh.
@Suite struct FinishedRecognizerTests {
    /// Held 0.7 s, then moved: the long press began (and won), then is cancelled by the
    /// movement — finished, still the winner until the lift.
    static func heldThenMoved(_ s: inout Touches, second: Finger? = nil) -> [TouchFrame] {
        s.frames([Finger(id: 1, down: 0, up: 1.5, path: line(P(50, 60), P(90, 60), 0.7, 0.9))] + (second.map { [$0] } ?? []))
    }

    @Test func aFinishedWinnerStillTakesTheContactsThatLandLater() {
        var s = Touches()
        let arena = GestureArena(recognizers: [LongPressRecognizer()])
        var events: [GestureEvent] = [], claimed: [(Double, Int32)] = []
        let frames = Self.heldThenMoved(&s, second: Finger(id: 2, down: 1.1, up: 1.3, path: still(P(120, 60))))
        for f in frames {
            arena.fireDeadlines(until: f.time) { events.append($0) }
            arena.handle(f) { events.append($0) }
            arena.drainClaims { claimed.append((f.time, $0)) }
        }
        #expect(summary(events) == ["long_press.began", "long_press.cancelled"])
        // Finger 1 when the hold began; finger 2 on landing, after the hold was cancelled.
        #expect(claimed.map(\.1) == [1, 2])
        #expect(claimed.last.map { abs($0.0 - 1.1) < 0.011 } == true)
    }

    @Test func aFinishedRecognizerStartsFreshInTheNextSequence() {
        var s = Touches()
        let arena = GestureArena(recognizers: [LongPressRecognizer()])
        let first = run(arena, Self.heldThenMoved(&s))
        var s2 = Touches()
        let second = run(arena, s2.frames([Finger(id: 3, down: 0, up: 0.8, path: still(P(60, 60)))]).map { f in
            TouchFrame(time: f.time + 10, surface: f.surface, contacts: f.contacts)
        })
        #expect(summary(first) == ["long_press.began", "long_press.cancelled"])
        #expect(summary(second) == ["long_press.began", "long_press.ended"])
    }
}
