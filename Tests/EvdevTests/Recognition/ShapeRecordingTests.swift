import Testing
@testable import Evdev
import GestureKit

/// Runs a recording through the real evemu parser and contact tracker into the three shape
/// recognizers (each on its own, as `gestured trace` does, no arena), resetting them whenever
/// every finger is up. Returns the events of each kind.
func shapeEvents(_ path: String) throws -> [GestureEvent] {
    let recording = try Recording.load(path: path)
    var tracker = ContactTracker(info: recording.info)
    let recognizers: [any GestureRecognizer] = [CircleRecognizer(), CheckmarkRecognizer(), TickleRecognizer()]
    var events: [GestureEvent] = []
    for e in recording.events {
        tracker.feed(e) { frame in
            for r in recognizers { r.handle(frame, events: &events) }
            if frame.downCount == 0 { for r in recognizers { r.reset() } }
        }
    }
    return events
}

@Suite struct ShapeRecordingTests {
    @Test(arguments: [
        "tablets/Wacom_ISDv4_E6_Finger.single-center-circle.events",
        "tablets/Wacom_Bamboo_16FG_4x5_Finger_single-center-circle.events",
        "tablets/Wacom_Intuos5_touch_M_Finger_single-center-circle.events",
    ])
    func realCirclesAreClockwiseCircles(file: String) throws {
        let events = try shapeEvents(Fixture.recording(file))
        let circles = events.filter { $0.kind == .circle }
        #expect(circles.count >= 1, "\(events.map(\.kind))")
        #expect(circles.allSatisfy { $0.direction == .clockwise })
        #expect(!events.contains { $0.kind == .checkmark })
    }

    @Test(arguments: [
        "tablets/Wacom_ISDv4_E6_Finger.single-center-scroll.events",
        "tablets/Wacom_ISDv4_E6_Finger.single-top-swipe.events",
        "tablets/Wacom_ISDv4_E6_Finger.single-tap-center.events",
        "tablets/Wacom_Bamboo_16FG_4x5_Finger_single-center-scroll.events",
        "tablets/Wacom_Bamboo_16FG_4x5_Finger_single-top-swipe.events",
        "tablets/Wacom_Intuos5_touch_M_Finger_single-center-scroll.events",
        "tablets/Wacom_Intuos5_touch_M_Finger_single-top-swipe.events",
    ])
    func scrollsSwipesAndTapsAreNotShapes(file: String) throws {
        let events = try shapeEvents(Fixture.recording(file))
        #expect(!events.contains { $0.kind == .circle || $0.kind == .checkmark }, "\(events.map(\.kind))")
    }
}

/// The same recordings through what `gestured replay` runs: the pipeline with the default arena,
/// every recognizer competing (long press, swipe and pan included).
@Suite struct ShapeArenaRecordingTests {
    func gestures(_ file: String) throws -> [GestureEvent] {
        let recording = try Recording.load(path: Fixture.recording(file))
        let pipeline = DevicePipeline(info: recording.info, arena: RecognizerCatalog.defaultArena())
        var out: [GestureEvent] = []
        for e in recording.events { pipeline.feed(e) { out.append($0) } }
        return out
    }

    @Test(arguments: [
        "tablets/Wacom_ISDv4_E6_Finger.single-center-circle.events",
        "tablets/Wacom_Bamboo_16FG_4x5_Finger_single-center-circle.events",
        "tablets/Wacom_Intuos5_touch_M_Finger_single-center-circle.events",
    ])
    func realCirclesWinTheDefaultArena(file: String) throws {
        let events = try gestures(file)
        let circles = events.filter { $0.kind == .circle }
        #expect(circles.count == 1, "\(events.map { "\($0.kind.rawValue).\($0.phase.rawValue)" })")
        #expect(circles.first?.direction == .clockwise)
        // Nothing else is recognized or ends normally; a hold that began before the finger
        // moved may appear, cancelled, and so may a provisional pan, cancelled before the circle.
        let others = completedGestures(events).filter { $0.kind != .circle }
        #expect(others.isEmpty, "\(others.map { "\($0.kind.rawValue).\($0.phase.rawValue)" })")
        if let panCancelled = events.firstIndex(where: { $0.kind == .pan && $0.phase == .cancelled }) {
            #expect(panCancelled < events.firstIndex { $0.kind == .circle }!)
        }
    }
}
