import Evdev
import GestureKit
import Testing

/// The ghost quarantine in the pipeline: a phantom reaches neither the arena nor the stage (the
/// daemon's passthrough and its modes: no sequence starts, so no idle timer or wake hears of
/// it); a real tap reaches both, late by at most the quarantine's time.
@Suite("quarantined pipeline")
struct QuarantinedPipelineTests {
    /// `starts`: the gate heard the frame's first touch just before the stage judged it.
    final class Stage: TestStage {
        var judged: [(phases: [ContactPhase], starts: Bool, time: Double)] = []
        private var firstTouchHeard = false
        override func firstTouch(answerNow: Bool) -> Bool {
            firstTouchHeard = true
            return false
        }
        override func judged(_ frame: borrowing TouchFrame, arena: GestureArena) {
            judged.append((frame.contacts.map(\.phase), firstTouchHeard, frame.time))
            firstTouchHeard = false
        }
    }

    func pipeline() -> (DevicePipeline, Stage) {
        let p = DevicePipeline(info: syntheticTouchscreen(), arena: GestureArena(recognizers: [TapRecognizer()]))
        p.quarantine = GhostQuarantine(surface: p.tracker.surface)
        let stage = Stage()
        stage.hook(to: p)
        return (p, stage)
    }

    @Test("a phantom reaches no recognizer and no stage; a real tap reaches both, late by at most the quarantine's time")
    func phantomAndTap() {
        let (p, stage) = pipeline()
        var gestures: [GestureEvent] = []
        var s = EventScript()
        s.slot(0, id: 1, x: 950, y: 20)
        s.syn(advance: 0)
        s.lift(0)
        s.syn(advance: 1)
        for e in s.take() { p.feed(e) { gestures.append($0) } }
        p.tick(now: s.time) { gestures.append($0) }
        #expect(stage.judged.isEmpty && gestures.isEmpty && p.deadline == nil)
        #expect(p.quarantine?.ghosts == 1)

        // A real tap at the same place: down; the timer shows it 5 ms later; up 60 ms after the down.
        s.slot(0, id: 2, x: 950, y: 20)
        s.syn(advance: 0)
        for e in s.take() { p.feed(e) { gestures.append($0) } }
        #expect(stage.judged.isEmpty)
        let due = p.deadline ?? 0
        #expect(abs(due - (s.time + 0.005)) < 1e-9)
        p.tick(now: due) { gestures.append($0) }
        #expect(stage.judged.map(\.phases) == [[.began]] && stage.judged.first?.starts == true)
        s.time += 0.06
        s.lift(0)
        s.syn()
        for e in s.take() { p.feed(e) { gestures.append($0) } }
        p.tick(now: s.time + 1) { gestures.append($0) }
        #expect(stage.judged.map(\.phases) == [[.began], [.ended]])
        #expect(gestures.contains { $0.kind == .tap && $0.phase == .recognized })
        #expect(p.quarantine?.ghosts == 1)
    }

    @Test("a contact held when the device goes away is dropped; the arena hears nothing of it")
    func lostWhileHeld() {
        let (p, stage) = pipeline()
        var s = EventScript()
        s.slot(0, id: 1, x: 500, y: 250)
        s.syn()
        for e in s.take() { p.feed(e) { _ in } }
        var gestures: [GestureEvent] = []
        p.deviceLost(time: s.time) { gestures.append($0) }
        #expect(stage.judged.isEmpty && gestures.isEmpty && p.quarantine?.isQuiet == true && p.deadline == nil)
    }
}
