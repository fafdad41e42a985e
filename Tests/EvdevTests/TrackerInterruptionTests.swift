import Evdev
import GestureKit
import Testing

/// Synthetic protocol B streams on a 1000×500-unit, 10 units/mm touchscreen (100×50 mm):
/// raw x 100 → 10 mm, so every expected millimetre below is raw / 10.
@Suite("contact tracker: interruptions, palms, touches already down")
struct TrackerInterruptionTests {
    let info = syntheticTouchscreen()

    func run(_ tracker: inout ContactTracker, _ events: [InputEvent]) -> [SeenFrame] {
        var out: [SeenFrame] = []
        for e in events { tracker.feed(e) { out.append(copy($0)) } }
        return out
    }

    /// Two fingers down (slots 0 and 1), then one move.
    func twoFingers(_ tracker: inout ContactTracker) -> [SeenFrame] {
        var s = EventScript()
        s.slot(0, id: 40, x: 100, y: 100)
        s.slot(1, id: 41, x: 500, y: 200)
        s.syn()
        s.slot(0, x: 110)
        s.syn()
        return run(&tracker, s.take())
    }

    @Test("two fingers: began, then moved and stationary")
    func basics() {
        var t = ContactTracker(info: info)
        let f = twoFingers(&t)
        #expect(f.count == 2)
        #expect(f[0].contacts.map(\.phase) == [.began, .began])
        #expect(f[0].contacts.map(\.id) == [1, 2])
        #expect(f[1].contacts.map(\.phase) == [.moved, .stationary])
        #expect(f[1].contacts[0].mm == Point(x: 11, y: 10))
        #expect(f[1].contacts[1].mm == Point(x: 50, y: 20))
    }

    @Test("SYN_DROPPED resync: the finger still down continues, the replaced one is cancelled, a new one begins")
    func resyncAfterDrop() {
        var t = ContactTracker(info: info)
        _ = twoFingers(&t)
        // Kernel state after the drop: slot 0 still tracking 40 (moved to 120), slot 1 now 42
        // (finger 41 lifted and another touched while events were lost).
        var f: [SeenFrame] = []
        t.resync(time: 200, slots: [SlotSnapshot(trackingID: 40, x: 120, y: 100),
                                    SlotSnapshot(trackingID: 42, x: 700, y: 300)]) { f.append(copy($0)) }
        #expect(f.count == 1)
        let byID = Dictionary(uniqueKeysWithValues: f[0].contacts.map { ($0.id, $0) })
        #expect(byID[1]?.phase == .moved && byID[1]?.mm == Point(x: 12, y: 10))
        #expect(byID[2]?.phase == .cancelled)
        #expect(byID[3]?.phase == .began && byID[3]?.mm == Point(x: 70, y: 30))
        #expect(f[0].time == 200)
        // Afterwards, ordinary events continue from the resynchronized state.
        var s = EventScript()
        s.time = 201
        s.lift(0)
        s.syn()
        let after = run(&t, s.take())
        #expect(after.count == 1)
        #expect(after[0].contacts.map(\.id) == [1, 3])
        #expect(after[0].contacts.map(\.phase) == [.ended, .stationary])
    }

    @Test("SYN_DROPPED resync: a slot that emptied cancels its contact")
    func resyncVanished() {
        var t = ContactTracker(info: info)
        _ = twoFingers(&t)
        var f: [SeenFrame] = []
        t.resync(time: 200, slots: [SlotSnapshot(trackingID: 40, x: 110, y: 100), .empty]) { f.append(copy($0)) }
        #expect(f.count == 1)
        #expect(f[0].contacts.map(\.phase) == [.cancelled, .stationary])
        #expect(f[0].contacts.map(\.id) == [2, 1])
        #expect(t.downCount == 1)
    }

    @Test("SYN_DROPPED inside a stream: the same frames fed whole or in reads that split the loss as one event at a time",
          arguments: [0, 1, 2, 3, 5])
    func droppedInReads(_ readSize: Int) {
        var s = EventScript()
        s.slot(0, id: 40, x: 100, y: 100)
        s.slot(1, id: 41, x: 500, y: 200)
        s.syn()
        s.slot(0, x: 120)
        s.events.append(InputEvent(time: s.time, type: EV.SYN, code: SYN.DROPPED, value: 0))
        s.slot(0, x: 999)          // lost, and so is what follows up to the SYN_REPORT
        s.events.append(InputEvent(time: s.time, type: EV.SYN, code: SYN.DROPPED, value: 0))
        s.slot(1, x: 998)
        s.syn()
        s.slot(1, x: 600)          // finger 41 still down but ignored
        s.syn()
        s.lift(0)
        s.lift(1)
        s.slot(2, id: 50, x: 300, y: 300)
        s.syn()
        let events = s.take()
        var one = ContactTracker(info: info)
        let byEvent = run(&one, events)
        #expect(byEvent.map { $0.contacts.map(\.phase) } == [[.began, .began], [.cancelled, .cancelled], [.began]])
        #expect(byEvent[1].contacts[0].mm == Point(x: 12, y: 10))  // what came before the drop, not the lost 999

        var t = ContactTracker(info: info)
        var inReads: [SeenFrame] = []
        let size = readSize == 0 ? events.count : readSize
        events.withUnsafeBufferPointer { all in
            for start in stride(from: 0, to: all.count, by: size) {
                t.feed(UnsafeBufferPointer(rebasing: all[start..<min(start + size, all.count)])) { inReads.append(copy($0)) }
            }
        }
        #expect(inReads.map(\.contacts) == byEvent.map(\.contacts))
        #expect(inReads.map(\.time) == byEvent.map(\.time))
    }

    @Test("SYN_DROPPED inside a stream (no kernel state): every contact cancelled, ignored until lifted")
    func droppedInStream() {
        var t = ContactTracker(info: info)
        _ = twoFingers(&t)
        var s = EventScript()
        s.events.append(InputEvent(time: s.time, type: EV.SYN, code: SYN.DROPPED, value: 0))
        s.slot(0, x: 999)          // discarded: up to the next SYN_REPORT
        s.syn()
        s.slot(1, x: 600)          // finger 41 still down but ignored
        s.syn()
        s.lift(1)
        s.slot(2, id: 50, x: 300, y: 300)
        s.syn()
        let f = run(&t, s.take())
        #expect(f.count == 2)
        #expect(f[0].contacts.map(\.phase) == [.cancelled, .cancelled])
        #expect(f[0].contacts[0].mm == Point(x: 11, y: 10))  // last known position, not the dropped 999
        #expect(f[1].contacts.map(\.phase) == [.began])
        #expect(f[1].contacts.map(\.id) == [3])
    }

    @Test("unplug mid-touch: all contacts cancelled in one frame, nothing after")
    func unplug() {
        var t = ContactTracker(info: info)
        _ = twoFingers(&t)
        var f: [SeenFrame] = []
        t.cancelAll(time: 300) { f.append(copy($0)) }
        #expect(f.count == 1)
        #expect(f[0].contacts.map(\.phase) == [.cancelled, .cancelled])
        #expect(Set(f[0].contacts.map(\.id)) == [1, 2])
        #expect(t.downCount == 0)
        var again: [SeenFrame] = []
        t.cancelAll(time: 301) { again.append(copy($0)) }
        #expect(again.isEmpty)
    }

    @Test("MT_TOOL_PALM cancels a reported contact; a palm from the start is never reported")
    func palm() {
        var t = ContactTracker(info: syntheticTouchscreen(palm: true))
        var s = EventScript()
        s.slot(0, id: 1, x: 100, y: 100)
        s.syn()
        s.slot(0)
        s.abs(ABS.MT_TOOL_TYPE, MTTool.PALM)
        s.slot(1, id: 2, x: 300, y: 100)
        s.abs(ABS.MT_TOOL_TYPE, MTTool.PALM)
        s.syn()
        s.slot(0, x: 150)          // palm moves: not reported
        s.syn()
        s.lift(0)
        s.lift(1)
        s.syn()
        s.slot(0, id: 3, x: 100, y: 100)
        s.abs(ABS.MT_TOOL_TYPE, MTTool.FINGER)
        s.syn()
        let f = run(&t, s.take())
        #expect(f.count == 3)
        #expect(f[0].contacts.map(\.phase) == [.began])
        #expect(f[1].contacts.map(\.phase) == [.cancelled] && f[1].contacts[0].tool == .palm)
        #expect(f[2].contacts.map(\.phase) == [.began] && f[2].contacts[0].id == 3)
    }

    @Test("touches already down when the device opens are ignored until they lift")
    func initialSlots() {
        var t = ContactTracker(info: info, initialSlots: [SlotSnapshot(trackingID: 7, x: 100, y: 100)])
        var s = EventScript()
        s.slot(0, x: 120)          // the old touch moves: not reported
        s.syn()
        s.slot(1, id: 8, x: 400, y: 100)
        s.syn()
        s.lift(0)
        s.syn()
        let f = run(&t, s.take())
        #expect(f.count == 2)
        #expect(f[0].contacts.map(\.slot) == [1] && f[0].contacts[0].phase == .began)
        #expect(f[1].contacts.map(\.phase) == [.stationary])
    }

    @Test("a touch in an idle slot that brings no coordinate begins where the slot's last touch was")
    func initialPositionOfAnIdleSlot() {
        var t = ContactTracker(info: info, initialSlots: [SlotSnapshot(trackingID: -1, x: 300, y: 200)])
        var s = EventScript()
        s.slot(0, id: 9)           // the kernel dropped x and y: unchanged since the last touch
        s.syn()
        let f = run(&t, s.take())
        var plain = ContactTracker(info: info)
        s.slot(0, id: 9, x: 300, y: 200)
        s.syn()
        let g = run(&plain, s.take())
        #expect(f.count == 1 && g.count == 1)
        #expect(f[0].contacts.map(\.phase) == [.began] && f[0].contacts[0].mm == g[0].contacts[0].mm)
    }

    @Test("a new tracking id in an occupied slot ends the old contact and begins a new one")
    func trackingIDReplaced() {
        var t = ContactTracker(info: info)
        var s = EventScript()
        s.slot(0, id: 1, x: 100, y: 100)
        s.syn()
        s.slot(0, id: 2, x: 200, y: 100)
        s.syn()
        let f = run(&t, s.take())
        #expect(f.count == 2)
        #expect(f[1].contacts.map(\.phase) == [.ended, .began])
        #expect(f[1].contacts.map(\.id) == [1, 2])
        #expect(f[1].contacts[0].mm == Point(x: 10, y: 10))
    }

    @Test("slot numbers outside the device's range are ignored, not a crash")
    func badSlot() {
        var t = ContactTracker(info: syntheticTouchscreen(slots: 2))
        var s = EventScript()
        s.slot(5, id: 1, x: 100, y: 100)
        s.slot(-3, id: 2, x: 100, y: 100)
        s.syn()
        #expect(run(&t, s.take()).isEmpty)
    }

    @Test("a contact that did not change is reported as it was; a new tool, or a new place in the frame, rebuilds it")
    func unchangedContactsInPlace() {
        var t = ContactTracker(info: syntheticTouchscreen(palm: true))
        var f = twoFingers(&t)
        var s = EventScript()
        s.time = 200
        s.syn()                                 // nothing changed
        s.slot(1)
        s.abs(ABS.MT_TOOL_TYPE, MTTool.PEN)     // a new tool, not a move
        s.syn()
        s.lift(0)
        s.syn()                                 // finger 1 ends: finger 2 moves to the frame's second place
        s.syn()                                 // and to its first
        f += run(&t, s.take())
        #expect(f.count == 6)
        #expect(f[2].contacts.map(\.phase) == [.stationary, .stationary])
        #expect(f[2].contacts.map(\.mm) == [Point(x: 11, y: 10), Point(x: 50, y: 20)])
        #expect(f[3].contacts.map(\.tool) == [.finger, .pen] && f[3].contacts[1].phase == .stationary)
        #expect(f[4].contacts.map(\.id) == [1, 2] && f[4].contacts.map(\.phase) == [.ended, .stationary])
        #expect(f[5].contacts.map(\.id) == [2] && f[5].contacts[0].phase == .stationary)
        #expect(f[5].contacts[0].tool == .pen && f[5].contacts[0].slot == 1)
        #expect(f[5].contacts[0].mm == Point(x: 50, y: 20) && f[5].contacts[0].position == f[2].contacts[1].position)
    }
}
