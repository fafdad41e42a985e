import CLibevdev
@testable import Evdev
import GestureKit
import Testing

/// The daemon feeds a live device's reads whole (`DevicePipeline.feed(_ events: EventBatch, …)`),
/// converting kernel times only for the events that end a frame; the tests feed one `InputEvent`
/// at a time (a batch of one, through the same loop). Both must give the same frames and gestures.
@Suite("event batches")
struct EventBatchTests {
    /// Keeps a copy of every frame the arena judged, and counts the events recorded, the reports
    /// that ended a frame and the first touches the gate heard.
    final class Frames: TestStage {
        var seen: [SeenFrame] = []
        var recorded = 0, reports = 0, firstTouches = 0
        /// Frames that start a sequence (TouchFrame.startsSequence).
        var starts = 0
        override func record(_ e: InputEvent) { recorded += 1 }
        override func judged(_ frame: borrowing TouchFrame, arena: GestureArena) {
            if frame.startsSequence { starts += 1 }
            seen.append(copy(frame))
        }
        override func frameEnded(_ report: InputEvent) { reports += 1 }
        override func firstTouch(answerNow: Bool) -> Bool {
            firstTouches += 1
            return false
        }
    }

    @Test("a recording fed in reads gives the frames and gestures it gives fed an event at a time",
          arguments: [
              "tablets/Wacom_ISDv4_E6_Finger.single-top-swipe.events",                 // protocol B, one finger
              "touchscreens/Atmel_maXTouch_Touchscreen.4-finger-drag-down.events",     // protocol B, four
              "touchscreens/N-Trig_MultiTouch.2-fingers-touch-release.events",         // protocol A (mtdev)
              "touchpads/AlpsPS2-ALPS-DualPoint-TouchPad-non-MT.tap.events",            // single touch
          ])
    func batchesAsEvents(_ name: String) throws {
        let r = try Recording.load(path: Fixture.recording(name))
        // As a read(2) leaves them: kernel times in microseconds, reads of up to 7 events, so that
        // frames straddle reads.
        let raw = r.events.map(input_event.init)
        let byEvent = Frames(), byRead = Frames()
        let one = DevicePipeline(info: r.info, arena: RecognizerCatalog.defaultArena())
        let batched = DevicePipeline(info: r.info, arena: RecognizerCatalog.defaultArena())
        byEvent.hook(to: one)
        byRead.hook(to: batched)
        var gestures: [String] = [], batchedGestures: [String] = []
        raw.withUnsafeBufferPointer { buffer in
            for start in stride(from: 0, to: buffer.count, by: 7) {
                let events = EventBatch(base: buffer.baseAddress! + start, count: min(7, buffer.count - start))
                for e in events { one.feed(e) { gestures.append("\($0)") } }
                batched.feed(events) { batchedGestures.append("\($0)") }
            }
        }
        #expect(!byRead.seen.isEmpty)
        #expect(byRead.seen.map(\.time) == byEvent.seen.map(\.time))
        #expect(byRead.seen.map(\.contacts) == byEvent.seen.map(\.contacts))
        #expect(batchedGestures == gestures)
        // The gate hears each frame that starts a sequence, however the events came.
        #expect(byEvent.starts > 0 && byRead.starts == byEvent.starts)
        #expect(byEvent.firstTouches == byEvent.starts && byRead.firstTouches == byEvent.starts)
        // Every event was recorded once, and every report ended a frame.
        let reports = r.events.filter { $0.type == EV.SYN && $0.code == SYN.REPORT }.count
        #expect(byEvent.recorded == r.events.count && byRead.recorded == r.events.count)
        #expect(byEvent.reports == reports && byRead.reports == reports)
    }
}
