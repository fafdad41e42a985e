import Testing
import GestureKit

/// The one deadline driver that replay, the recording source, the trace and the tests use.
@Suite struct DeadlineDriverTests {
    @Test func firesEachDeadlineUpToTheTimeAtItsOwnTimeInOrder() {
        var pending: [Double] = [0.3, 0.1, 0.7]
        var fired: [Double] = []
        let n = DeadlineDriver.fire(until: 0.5, next: { pending.min() }) { t in
            fired.append(t)
            pending.removeAll { $0 == t }
        }
        #expect(n == 2 && fired == [0.1, 0.3] && pending == [0.7])
        DeadlineDriver.fire(until: .infinity, next: { pending.min() }) { t in
            fired.append(t)
            pending.removeAll { $0 == t }
        }
        #expect(fired == [0.1, 0.3, 0.7] && pending.isEmpty)
    }

    @Test func aTimerThatNeverMovesOnStopsAtTheLimit() {
        var ticks = 0
        let n = DeadlineDriver.fire(until: .infinity, next: { 1.0 }) { _ in ticks += 1 }
        #expect(n == DeadlineDriver.limit && ticks == DeadlineDriver.limit)
    }

    @Test func aLongPressFiresAtItsDeadlineThroughTheRecognizerExtension() {
        let r = LongPressRecognizer()
        var events: [GestureEvent] = []
        var frames = Touches()
        for f in frames.frames([Finger(id: 1, down: 0, up: 2, path: still(P(50, 50)))]).prefix(while: { $0.time < 0.2 }) {
            r.handle(f, events: &events)
        }
        #expect(r.deadline != nil)
        r.fireDeadlines(until: 5, events: &events)
        #expect(events.contains { $0.kind == .longPress }, "\(events)")
        #expect(r.deadline == nil)
    }
}
