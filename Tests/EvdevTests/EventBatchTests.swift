import CLibevdev
@testable import Evdev
import GestureKit
import Testing

/// The daemon feeds a live device's reads whole (`DevicePipeline.feed(_ events: EventBatch, …)`),
/// converting kernel times only for the events that end a frame; the tests feed one `InputEvent`
/// at a time (a batch of one, through the same loop). Both must give the same frames and gestures.
@Suite("event batches")
struct EventBatchTests {
    /// Keeps a copy of every frame the arena judged.
    final class Frames: FrameStage {
        var seen: [SeenFrame] = []
        /// Frames whose `startsSequence` from the tracker was not the frame's own.
        var startsWrong = 0
        func judged(_ frame: borrowing TouchFrame, startsSequence: Bool, arena: GestureArena) {
            if startsSequence != frame.startsSequence { startsWrong += 1 }
            seen.append(copy(frame))
        }
        func dropped() {}
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
        one.stage = byEvent
        batched.stage = byRead
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
        #expect(byEvent.startsWrong == 0 && byRead.startsWrong == 0)
    }
}
