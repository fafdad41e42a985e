import Evdev
import GestureKit
import Testing

@Suite("device pipeline")
struct DevicePipelineTests {
    @Test("a recording's frames go through the pipeline exactly as through the tracker")
    func sameFramesAsTracker() throws {
        let r = try Recording.load(path: Fixture.recording("touchscreens/Atmel_maXTouch_Touchscreen.4-finger-drag-down.events"))
        let pipeline = DevicePipeline(info: r.info, arena: RecognizerCatalog.defaultArena())
        var seen: [SeenFrame] = []
        for e in r.events { pipeline.feed(e, onFrame: { seen.append(copy($0)) }, onGesture: { _ in }) }
        let direct = frames(of: r)
        #expect(seen.count == direct.count && seen.count == 31)
        #expect(seen.map { $0.contacts.map(\.id) } == direct.map { $0.contacts.map(\.id) })
        #expect(pipeline.label == DeviceLabel(name: "Atmel maXTouch Touchscreen", id: "Atmel_maXTouch_Touchscreen.4-finger-drag-down"))
    }

    @Test("device lost mid-touch: the pipeline emits the cancelled contacts")
    func deviceLost() {
        let pipeline = DevicePipeline(info: syntheticTouchscreen(), arena: RecognizerCatalog.defaultArena())
        var s = EventScript()
        s.slot(0, id: 1, x: 100, y: 100)
        s.slot(1, id: 2, x: 200, y: 100)
        s.syn()
        for e in s.take() { pipeline.feed(e, onGesture: { _ in }) }
        var seen: [SeenFrame] = []
        pipeline.deviceLost(time: 5, onFrame: { seen.append(copy($0)) }, onGesture: { _ in })
        #expect(seen.count == 1 && seen[0].contacts.map(\.phase) == [.cancelled, .cancelled])
        #expect(pipeline.tracker.downCount == 0)
    }

    @Test("dropped(): resync through the pipeline")
    func dropped() {
        let pipeline = DevicePipeline(info: syntheticTouchscreen(), arena: RecognizerCatalog.defaultArena())
        var s = EventScript()
        s.slot(0, id: 1, x: 100, y: 100)
        s.slot(1, id: 2, x: 200, y: 100)
        s.syn()
        for e in s.take() { pipeline.feed(e, onGesture: { _ in }) }
        var seen: [SeenFrame] = []
        pipeline.dropped(time: 6, slots: [SlotSnapshot(trackingID: 1, x: 100, y: 100), .empty],
                         onFrame: { seen.append(copy($0)) }, onGesture: { _ in })
        #expect(seen.count == 1)
        #expect(seen[0].contacts.map(\.phase) == [.cancelled, .stationary])
    }
}
