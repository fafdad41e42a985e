import Testing
@testable import GestureKit

/// While one finger alone moves, the arena hands the shapes decided at lift (DecidedAtLift)
/// nothing and grows their stroke itself: the stroke, and so every verdict at lift, must be
/// exactly what a recognizer fed every frame keeps.
@Suite struct LiftDecidedShapeTests {
    /// A straight lead-in of `leadMM`, then `turns` of a clockwise circle of radius 25 from its top.
    static func leadInCircle(leadMM: Double, turns: Double = 1.1) -> [Point] {
        let top = Point(x: 100, y: 75)
        let lead = Synthetic.polyline([Point(x: top.x - leadMM, y: top.y), top], step: 1.5)
        return lead.dropLast() + Synthetic.arc(center: Point(x: 100, y: 100), radius: 25, turns: turns)
    }

    /// The catalog's arena (one context: the shapes share one stroke), and the same without
    /// tickle, which is fed every frame and would add the sample the arena is to add.
    static func arena(withTickle: Bool) -> GestureArena {
        if withTickle { return RecognizerCatalog.defaultArena() }
        let context = RecognizerContext()
        return GestureArena(recognizers: RecognizerCatalog.all.filter { $0.kind != .tickle }.map { $0.make(context: context) },
                            rules: RecognizerCatalog.defaultRules)
    }

    /// Plays `pts` through `arena` and into a circle recognizer of its own fed every frame;
    /// compares them before and at the lift.
    static func compare(_ pts: [Point], _ arena: GestureArena) throws -> (arena: [GestureEvent], alone: [GestureEvent]) {
        let circle = try #require(arena.recognizers.first { $0 is CircleRecognizer } as? CircleRecognizer)
        let alone = CircleRecognizer()
        var emitted: [GestureEvent] = [], aloneEvents: [GestureEvent] = []
        let frames = SharedStrokeTests.frames(pts)
        for (k, f) in frames.enumerated() {
            if k == frames.count - 1 {
                // Before the lift (which ends the sequence and resets the arena's circle): the
                // stroke the arena grew is the one a recognizer fed every frame kept.
                let same = circle.stroke.samples == alone.stroke.samples
                #expect(same && circle.stroke.count > 60 && circle.state == .possible)
            }
            arena.handle(f) { emitted.append($0) }
            alone.handle(f, events: &aloneEvents)
        }
        return (emitted, aloneEvents)
    }

    @Test(arguments: [true, false]) func aCircleAfterALongStraightLeadInIsStillRecognized(withTickle: Bool) throws {
        let (emitted, aloneEvents) = try Self.compare(Self.leadInCircle(leadMM: 30), Self.arena(withTickle: withTickle))
        let a = try #require(aloneEvents.first)
        #expect(a.kind == .circle)
        let e = try #require(emitted.first { $0.kind == .circle })
        // The same analysis: centre, radius, fit, direction and turns of the same resampled stroke.
        #expect(e.centerMM == a.centerMM && e.center == a.center && e.radiusMM == a.radiusMM)
        #expect(e.fitError == a.fitError && e.direction == a.direction && e.turns == a.turns)
    }

    @Test(arguments: [true, false]) func aSkippedCircleFailsWhereOneFedEveryFrameFails(withTickle: Bool) throws {
        // Two thirds of a circle: both fail at the lift, on the same stroke.
        let (emitted, aloneEvents) = try Self.compare(Self.leadInCircle(leadMM: 30, turns: 0.65), Self.arena(withTickle: withTickle))
        #expect(aloneEvents.isEmpty && !emitted.contains { $0.kind == .circle })
    }
}
