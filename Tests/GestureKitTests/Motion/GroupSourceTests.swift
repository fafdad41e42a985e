import Testing
@testable import GestureKit

/// A GroupReader reads the arena's group of the sequence while the arena runs it; GestureArena's
/// `recognizers` are public, so a caller may keep one after the arena is gone. The reader owns
/// the group it reads (GroupSource retains it), so what it reads then is still the group the
/// arena filled, not freed memory (AddressSanitizer, which CI runs the unit tests under, stops
/// on a read of a freed group).
@Suite struct GroupSourceTests {
    @Test func aReaderKeptAfterItsArenaStillReadsTheGroupItWasLent() throws {
        // A stroke still down: the swipe's deadline is read from the group (its first touch).
        let frames = SharedStrokeTests.frames(Synthetic.polyline([Point(x: 20, y: 40), Point(x: 120, y: 42)])).dropLast()
        var kept: SwipeRecognizer?
        var deadlineWithArena: Double?
        do {
            let arena = RecognizerCatalog.defaultArena()
            for f in frames { arena.handle(f) { _ in } }
            kept = arena.recognizers.compactMap { $0 as? SwipeRecognizer }.first
            deadlineWithArena = kept?.deadline
        }
        let swipe = try #require(kept)
        let due = try #require(deadlineWithArena)
        #expect(due == frames.first!.time + swipe.rules.maxDuration)
        // The arena is gone; the group it lent is the swipe's now.
        #expect(swipe.deadline == due)
    }
}
