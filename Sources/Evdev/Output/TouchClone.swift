import CLibevdev
import GestureKit
import Glibc

/// The virtual twin of a passed-through touchscreen (`passthrough = true`): a uinput device with
/// the real one's axes, ranges, resolution, slots and properties, which the compositor and
/// libinput use instead of the grabbed real device. It writes what TouchRelay decides:
///
/// - a forwarded slot's events go out as the device sent them (pressure, touch size and all),
///   except tracking ids, which the clone numbers itself so that late (held) contacts and live
///   ones never collide;
/// - a cancelled contact becomes MT_TOOL_PALM (libinput: TOUCH_CANCEL); the clone always has
///   ABS_MT_TOOL_TYPE for this, added when the device lacks it;
/// - a release of a contact the app has down always goes out, so the app never keeps a stuck touch;
/// - BTN_TOUCH and BTN_TOOL_FINGER follow the contacts the app has down (the multi-finger
///   BTN_TOOL_* keys are not sent: a touchscreen's readers count slots); the single-touch
///   axes (ABS_X, ABS_Y, …) go out only in frames where every slot's events went out, so a held
///   contact's position never leaks through them.
///
/// Each step is one write(2) (UInputDevice). Steady state allocates nothing.
public final class TouchClone {
    /// Where the clone's frames go: its uinput device; for benchmarks any FrameSink.
    private let sink: any FrameSink
    /// The uinput device, nil for a clone writing to another sink.
    public let output: UInputDevice?

    /// Ends a clone's name: how an operator's udev rule and `gestured devices` recognize it
    /// (gestured's own hotplug skips every device it made: UInputDevice.isGestured).
    public static let nameSuffix = " (gestured clone)"
    /// uinput's name limit (UINPUT_MAX_NAME_SIZE, with its terminating zero).
    static let maxNameBytes = 79

    /// The event node of the clone of the device named `original`, if one exists (sysfs).
    public static func node(forDeviceNamed original: String, sysClassInput: String = "/sys/class/input") -> String? {
        let wanted = name(for: original)
        for entry in TextFile.list(sysClassInput) where entry.hasPrefix("event") {
            guard let text = try? TextFile.read(sysClassInput + "/" + entry + "/device/name") else { continue }
            var n = text
            while n.hasSuffix("\n") { n.removeLast() }
            if n == wanted { return "/dev/input/" + entry }
        }
        return nil
    }

    /// The clone's name for a device's name, cut to fit uinput's limit.
    public static func name(for original: String) -> String {
        var base = original
        while base.utf8.count + nameSuffix.utf8.count > maxNameBytes { base.removeLast() }
        return base + nameSuffix
    }

    /// Keys that say how many contacts are down: the clone derives them from the app's contacts.
    static let contactKeys: [UInt16] = [BTN.TOUCH, BTN.TOOL_FINGER, BTN.TOOL_DOUBLETAP, BTN.TOOL_TRIPLETAP,
                                        BTN.TOOL_QUADTAP, BTN.TOOL_QUINTTAP]

    private struct RawEvent {
        /// The slot it belongs to, or -1 for an event outside the slots (ABS_X, MSC_…).
        var slot: Int32
        var type: UInt16
        var code: UInt16
        var value: Int32
    }

    public var devnode: String { output?.devnode ?? "" }
    private let hasTouchKey: Bool
    private let hasToolFinger: Bool
    /// The events of the frame being read, until its SYN_REPORT.
    private var pending: [RawEvent] = []
    private var readSlot: Int32 = 0
    /// The app's view, per slot: a contact is down; its tool is a palm.
    private var down: [Bool]
    private var palm: [Bool]
    private var forwarded: [Bool]
    private var touchKeyDown = false
    /// The slot the clone's last ABS_MT_SLOT selected (-1: none yet).
    private var writeSlot: Int32 = -1
    private var nextTrackingID: Int32 = 1
    /// Events appended since the last SYN_REPORT; a `.sync` owed before the next event.
    private var open = 0
    private var syncOwed = false
    /// `map_clone`: the clone reports screen coordinates (CloneMapping), for the slots' axes and
    /// the single-touch ones; nil: it reports the device's own.
    private var mapping: CloneMapping?
    private var legacyMapping: CloneMapping?
    /// Each slot's raw position as last read (late begins, map_clone), and the single-touch axes' (map_clone).
    private var rawX: [Int32], rawY: [Int32]
    /// Each slot's position as the clone's kernel holds it (a new uinput device's slots hold 0):
    /// what `catchUp` compares with.
    private var heldX: [Int32], heldY: [Int32]
    private var legacyX: Int32 = 0, legacyY: Int32 = 0
    /// The transform the clone maps with (`map_clone`), nil when it reports the device's coordinates.
    public private(set) var mappedWith: CoordinateTransform?

    /// Creates the clone of an open (normally grabbed) protocol-B device; with `mapTo`
    /// (`map_clone`), one that reports the transform's screen coordinates (CloneMapping).
    public convenience init(of device: EvdevDevice, mapTo transform: CoordinateTransform? = nil) throws(DeviceError) {
        var template: OpaquePointer?
        let rc = libevdev_new_from_fd(device.fd, &template)
        guard rc == 0, let template else {
            throw DeviceError(devnode: device.devnode, errno: -rc, message: "cannot read the device to clone it")
        }
        defer { libevdev_free(template) }
        libevdev_set_name(template, Self.name(for: device.info.name))
        // Cancelling a contact needs MT_TOOL_PALM, whatever the real device reports.
        let tool = libevdev_get_abs_info(template, UInt32(ABS.MT_TOOL_TYPE))
        if tool == nil || tool!.pointee.maximum < MTTool.PALM {
            var abs = input_absinfo(value: 0, minimum: 0, maximum: 0x0f /* MT_TOOL_MAX */, fuzz: 0, flat: 0, resolution: 0)
            libevdev_enable_event_code(template, UInt32(EV.ABS), UInt32(ABS.MT_TOOL_TYPE), &abs)
        }
        let touchKey = libevdev_has_event_code(template, UInt32(EV.KEY), UInt32(BTN.TOUCH)) != 0
        let toolFinger = libevdev_has_event_code(template, UInt32(EV.KEY), UInt32(BTN.TOOL_FINGER)) != 0
        let mappings = transform.map { Self.mapAxes(template, $0) }
        let output = try UInputDevice(template: template)
        self.init(output: output, sink: output, slotCount: device.info.slotCount, touchKey: touchKey, toolFinger: toolFinger)
        mapping = mappings?.slots
        legacyMapping = mappings?.legacy
        mappedWith = transform
        startAt(template, info: device.info)
    }

    /// The positions the panel's kernel holds now: it drops an event whose value equals the held
    /// one, so a contact after a restart (or a reload that made the clone, or a replug that gave
    /// it back) at an x last set before may never send it, and the clone would map the other
    /// axis beside x = 0.
    private func startAt(_ panel: OpaquePointer, info: DeviceInfo) {
        startAt(EvdevDevice.slots(of: panel, info: info).map { ($0.x, $0.y) },
                legacy: (libevdev_get_event_value(panel, UInt32(EV.ABS), UInt32(ABS.X)),
                         libevdev_get_event_value(panel, UInt32(EV.ABS), UInt32(ABS.Y))))
    }

    /// A kept clone serves its panel again, back after a replug (KeptClones): it reads the
    /// returned panel from its current state. The app's contacts were ended when the panel went,
    /// and the clone's own kernel state (slots, positions, tracking ids) carries on.
    public func resume(reading device: EvdevDevice) {
        discardPending()
        var panel: OpaquePointer?
        guard libevdev_new_from_fd(device.fd, &panel) == 0, let panel else { return }
        defer { libevdev_free(panel) }
        readSlot = max(0, libevdev_get_current_slot(panel))
        startAt(panel, info: device.info)
    }

    /// A clone writing to `sink` (benchmarks: the same work with another write(2) target).
    /// `mapping`: the clone reports screen coordinates on its slots' axes (`map_clone`).
    public convenience init(sink: any FrameSink, slotCount: Int, touchKey: Bool = true, mapping: CloneMapping? = nil) {
        self.init(output: nil, sink: sink, slotCount: slotCount, touchKey: touchKey, toolFinger: false)
        self.mapping = mapping
    }

    private init(output: UInputDevice?, sink: any FrameSink, slotCount: Int, touchKey: Bool, toolFinger: Bool) {
        self.output = output
        self.sink = sink
        hasTouchKey = touchKey
        hasToolFinger = toolFinger
        let slots = max(1, slotCount)
        down = Array(repeating: false, count: slots)
        palm = Array(repeating: false, count: slots)
        forwarded = Array(repeating: false, count: slots)
        rawX = Array(repeating: 0, count: slots)
        rawY = Array(repeating: 0, count: slots)
        heldX = Array(repeating: 0, count: slots)
        heldY = Array(repeating: 0, count: slots)
        pending.reserveCapacity(256)
    }

    /// The raw positions the device holds before the first event read: per slot, and the
    /// single-touch axes'.
    public func startAt(_ slots: [(x: Int32, y: Int32)], legacy: (x: Int32, y: Int32) = (0, 0)) {
        for (s, p) in slots.prefix(rawX.count).enumerated() {
            rawX[s] = p.x
            rawY[s] = p.y
        }
        (legacyX, legacyY) = legacy
    }

    public var name: String { output?.name ?? "" }
    public var isAlive: Bool { output?.isAlive ?? true }

    /// Removes the clone from the system (also done when the process dies).
    public func destroy() { output?.destroy() }

    // MARK: Reading

    /// Notes one event read from the real device (every event, before the pipeline sees it).
    public func record(_ e: InputEvent) {
        switch e.type {
        case EV.SYN:
            return  // frames are ended by write; SYN_DROPPED is the relay's (drop)
        case EV.KEY where Self.contactKeys.contains(e.code):
            return  // follows the app's contacts instead
        case EV.ABS where e.code == ABS.MT_SLOT:
            readSlot = e.value
            return
        case EV.ABS where e.code > ABS.MT_SLOT && e.code <= 0x3d:
            guard readSlot >= 0 && Int(readSlot) < down.count else { return }
            noteRaw(slot: readSlot, e)
            append(RawEvent(slot: readSlot, type: e.type, code: e.code, value: e.value))
        default:
            if legacyMapping != nil { noteRaw(slot: -1, e) }
            append(RawEvent(slot: -1, type: e.type, code: e.code, value: e.value))
        }
    }

    private func append(_ r: RawEvent) {
        if pending.count < 4096 { pending.append(r) }  // a frame is a few dozen events; bound it anyway
    }

    /// Forgets the events of an unfinished frame (SYN_DROPPED: they are stale).
    public func discardPending() { pending.removeAll(keepingCapacity: true) }

    // MARK: Writing

    /// Writes one step of the relay's decisions in one write: at a SYN_REPORT (`frameEnded`: the
    /// frame's events read so far are this frame), or after timers (they stay for their frame).
    public func write(_ outputs: [TouchRelay.Output], frameEnded: Bool = true) throws(DeviceError) {
        for i in forwarded.indices { forwarded[i] = false }
        for o in outputs {
            switch o {
            case .forward(let slot):
                guard Int(slot) < down.count else { continue }
                if !down[Int(slot)] && beginsLate(slot) { continue }
                forwarded[Int(slot)] = true
                var moved = false
                for r in pending where r.slot == slot {
                    if mapping != nil && Self.isPosition(r.code) { moved = true } else { emitRaw(r) }
                }
                if down[Int(slot)] { catchUp(slot, moved: moved) }
            case .cancel(let slot):
                select(slot)
                event(EV.ABS, ABS.MT_TOOL_TYPE, MTTool.PALM)
                palm[Int(slot)] = true
            case .begin(let slot, let x, let y):
                select(slot)
                begin(slot)
                position(x, y)
            case .move(let slot, let x, let y):
                select(slot)
                position(x, y)
            case .lift(let slot):
                select(slot)
                lift(slot)
            case .keep(let slot):
                // Handled: finishFrame must not write the release it kept back.
                if Int(slot) < forwarded.count { forwarded[Int(slot)] = true }
            case .sync:
                if open > 0 { syncOwed = true }
            }
        }
        if frameEnded { finishFrame() }
        guard open > 0 || syncOwed else { return }
        touchKeys()
        open = 0
        syncOwed = false
        try sink.sendFrame()
    }

    /// Releases of contacts the app has down always go out; the single-touch axes only when
    /// nothing of this frame was kept back.
    private func finishFrame() {
        var keptBack = false
        for r in pending where r.slot >= 0 && !forwarded[Int(r.slot)] {
            if r.code == ABS.MT_TRACKING_ID && r.value < 0 && down[Int(r.slot)] {
                select(r.slot)
                lift(r.slot)
            } else {
                keptBack = true
            }
        }
        if !keptBack {
            var moved = false
            for r in pending where r.slot < 0 {
                if legacyMapping != nil && r.type == EV.ABS && (r.code == ABS.X || r.code == ABS.Y) { moved = true } else { event(r.type, r.code, r.value) }
            }
            if moved, let m = legacyMapping {
                let (x, y) = m.map(x: legacyX, y: legacyY)
                event(EV.ABS, ABS.X, x)
                event(EV.ABS, ABS.Y, y)
            }
        }
        pending.removeAll(keepingCapacity: true)
    }

    private func emitRaw(_ r: RawEvent) {
        if r.code == ABS.MT_TRACKING_ID {
            select(r.slot)
            if r.value >= 0 { begin(r.slot) } else if down[Int(r.slot)] { lift(r.slot) }
            return
        }
        if r.code == ABS.MT_TOOL_TYPE { palm[Int(r.slot)] = r.value == MTTool.PALM }
        select(r.slot)
        event(r.type, r.code, r.value)
    }

    // MARK: map_clone

    /// The template's position axes turned to the screen's (CloneMapping): the slots' and, when
    /// the device has them, the single-touch ones.
    private static func mapAxes(_ template: OpaquePointer, _ transform: CoordinateTransform) -> (slots: CloneMapping?, legacy: CloneMapping?) {
        func mapped(_ xCode: UInt16, _ yCode: UInt16) -> CloneMapping? {
            guard let xi = libevdev_get_abs_info(template, UInt32(xCode)), let yi = libevdev_get_abs_info(template, UInt32(yCode)) else { return nil }
            func axis(_ a: input_absinfo) -> AxisInfo {
                AxisInfo(minimum: a.minimum, maximum: a.maximum, fuzz: a.fuzz, flat: a.flat, resolution: a.resolution)
            }
            let m = CloneMapping(x: axis(xi.pointee), y: axis(yi.pointee), transform: transform)
            for (code, a) in [(xCode, m.cloneX), (yCode, m.cloneY)] {
                var abs = input_absinfo(value: a.minimum, minimum: a.minimum, maximum: a.maximum, fuzz: a.fuzz, flat: a.flat, resolution: a.resolution)
                libevdev_set_abs_info(template, UInt32(code), &abs)
            }
            return m
        }
        return (mapped(ABS.MT_POSITION_X, ABS.MT_POSITION_Y), mapped(ABS.X, ABS.Y))
    }

    static func isPosition(_ code: UInt16) -> Bool { code == ABS.MT_POSITION_X || code == ABS.MT_POSITION_Y }

    /// Keeps the raw position a mapped clone needs: a slot's (x and y come in separate events).
    private func noteRaw(slot: Int32, _ e: InputEvent) {
        guard e.type == EV.ABS else { return }
        switch (slot, e.code) {
        case (0..., ABS.MT_POSITION_X): rawX[Int(slot)] = e.value
        case (0..., ABS.MT_POSITION_Y): rawY[Int(slot)] = e.value
        case (-1, ABS.X): legacyX = e.value
        case (-1, ABS.Y): legacyY = e.value
        default: break
        }
    }

    /// A contact forwarded whose start the app has not had, nor gets in this frame (the ghost
    /// quarantine showed it late): it begins at its current position, and the frame's other
    /// events of the slot wait for the next `.forward` of it in this write (a lift, after a
    /// `.sync`), or are kept back (its position is written already).
    private func beginsLate(_ slot: Int32) -> Bool {
        guard !pending.contains(where: { $0.slot == slot && $0.code == ABS.MT_TRACKING_ID && $0.value >= 0 }) else { return false }
        select(slot)
        begin(slot)
        emitMapped(slot)
        return true
    }

    /// After a forwarded slot's events: its position, wherever the clone holds another. Each
    /// kernel drops a position equal to the one it holds, so a contact that begins where the
    /// device last had one comes with none — and the clone may hold another: a clone made after
    /// a restart holds 0, and one that was not given the touches before (a mode where the app
    /// gets nothing) holds an older place. A mapped clone writes the pair when either moved.
    private func catchUp(_ slot: Int32, moved: Bool) {
        let s = Int(slot)
        if let m = mapping {
            // Moved: written without comparing (emitMapped maps it; mapping it here too was twice).
            if moved { emitMapped(slot); return }
            let (x, y) = m.map(x: rawX[s], y: rawY[s])
            if x != heldX[s] || y != heldY[s] { emitMapped(slot) }
            return
        }
        if rawX[s] != heldX[s] {
            select(slot)
            event(EV.ABS, ABS.MT_POSITION_X, rawX[s])
        }
        if rawY[s] != heldY[s] {
            select(slot)
            event(EV.ABS, ABS.MT_POSITION_Y, rawY[s])
        }
    }

    /// The selected slot's position from its raw one, mapped when the clone maps.
    private func emitMapped(_ slot: Int32) {
        select(slot)
        position(rawX[Int(slot)], rawY[Int(slot)])
    }

    /// A position of the selected slot, in device units: written mapped when the clone maps.
    private func position(_ x: Int32, _ y: Int32) {
        let (cx, cy) = mapping?.map(x: x, y: y) ?? (x, y)
        event(EV.ABS, ABS.MT_POSITION_X, cx)
        event(EV.ABS, ABS.MT_POSITION_Y, cy)
    }

    private func begin(_ slot: Int32) {
        if palm[Int(slot)] {
            event(EV.ABS, ABS.MT_TOOL_TYPE, MTTool.FINGER)
            palm[Int(slot)] = false
        }
        event(EV.ABS, ABS.MT_TRACKING_ID, nextTrackingID)
        nextTrackingID = nextTrackingID >= 0xffff ? 1 : nextTrackingID + 1
        down[Int(slot)] = true
    }

    private func lift(_ slot: Int32) {
        event(EV.ABS, ABS.MT_TRACKING_ID, -1)
        down[Int(slot)] = false
    }

    private func select(_ slot: Int32) {
        guard slot != writeSlot else { return }
        event(EV.ABS, ABS.MT_SLOT, slot)
        writeSlot = slot
    }

    /// BTN_TOUCH follows whether the app has any contact down; checked before every SYN_REPORT.
    private func touchKeys() {
        let any = down.contains(true)
        guard any != touchKeyDown else { return }
        touchKeyDown = any
        if hasTouchKey { sink.append(type: EV.KEY, code: BTN.TOUCH, value: any ? 1 : 0) }
        if hasToolFinger { sink.append(type: EV.KEY, code: BTN.TOOL_FINGER, value: any ? 1 : 0) }
    }

    private func event(_ type: UInt16, _ code: UInt16, _ value: Int32) {
        if syncOwed {
            touchKeys()
            sink.append(type: EV.SYN, code: SYN.REPORT, value: 0)
            syncOwed = false
            open = 0
        }
        sink.append(type: type, code: code, value: value)
        open += 1
        if type == EV.ABS && writeSlot >= 0 {
            if code == ABS.MT_POSITION_X { heldX[Int(writeSlot)] = value } else if code == ABS.MT_POSITION_Y { heldY[Int(writeSlot)] = value }
        }
    }
}
