import Testing
@testable import GestureKit

/// The arena lends its context (FrameContext) to a GroupReader for the duration of a call, and
/// the reader keeps nothing of it: GestureArena's `recognizers` are public, and a reader kept
/// after its arena reads its own context, never the arena's (AddressSanitizer, which CI runs the
/// unit tests under, would stop on a read of freed memory).
@Suite struct FrameContextTests {
    @Test func aReaderKeptAfterItsArenaReadsItsOwnContext() throws {
        // A stroke still down: the swipe's deadline is read from the group (its first touch).
        let frames = SharedStrokeTests.frames(Synthetic.polyline([Point(x: 20, y: 40), Point(x: 120, y: 42)])).dropLast()
        var kept: SwipeRecognizer?
        var arenaDeadline: Double?
        do {
            let arena = RecognizerCatalog.defaultArena()
            for f in frames { arena.handle(f) { _ in } }
            kept = arena.recognizers.compactMap { $0 as? SwipeRecognizer }.first
            arenaDeadline = arena.deadline
        }
        let swipe = try #require(kept)
        // The arena's earliest deadline is the swipe's, read in the context it lent.
        #expect(arenaDeadline == frames.first!.time + swipe.rules.maxDuration)
        // The arena is gone: the swipe's own context never took a frame, so it has no deadline,
        // and handed the stroke itself it reads what it took.
        #expect(swipe.state == .possible && swipe.deadline == nil)
        var events: [GestureEvent] = []
        for f in frames { swipe.handle(f, events: &events) }
        #expect(swipe.deadline == arenaDeadline && events.isEmpty)
    }

    @Test func aReaderReadsTheContextItIsLentAndNotItsOwn() {
        let frames = SharedStrokeTests.frames(Synthetic.polyline([Point(x: 20, y: 40), Point(x: 120, y: 42)])).dropLast()
        let storage = FrameContext.makeStorage()
        var context = FrameContext(in: storage)
        defer { withExtendedLifetime(storage) {} }
        for f in frames { context.take(f) }
        let swipe = SwipeRecognizer()
        #expect(swipe.deadline(in: context) == frames.first!.time + swipe.rules.maxDuration)
        #expect(swipe.deadline == nil)
        // A tick past the deadline in the lent context fails the stroke.
        var events: [GestureEvent] = []
        swipe.tick(now: frames.first!.time + swipe.rules.maxDuration, in: context, events: &events)
        #expect(swipe.state == .failed && events.isEmpty)
    }
}
