import GestureKit

/// Turns a device's input events into touch frames: one frame per SYN_REPORT holding every
/// contact that is down plus those that ended or were cancelled in it.
///
/// - Protocol B: slots with tracking ids, as the kernel sends them.
/// - Protocol A: through mtdev, which turns anonymous contacts into protocol B.
/// - Single touch: ABS_X/ABS_Y with BTN_TOUCH (or BTN_TOOL_FINGER / BTN_LEFT) as slot 0.
///
/// Contact ids come from a counter (1, 2, …): unique on the device for the tracker's life,
/// whatever the kernel's tracking ids do (they repeat, and protocol A has none).
/// A contact whose start was not seen (down when the device was opened, changed during a
/// SYN_DROPPED, or turned into a palm) is never reported until it lifts: gestures must not
/// start from the middle of a touch.
///
/// Steady state allocates nothing: slots and the frame's contact array are reused. The slots are
/// written through a pointer into an `OwnedBuffer` the tracker holds (no bounds or uniqueness
/// check per event); a copy of the tracker would share them, so it is never copied (the
/// pipeline holds the one tracker of a device).
public struct ContactTracker {
    public let info: DeviceInfo
    public var geometry: DeviceGeometry { mapping.pointee }

    enum Life: UInt8 {
        case idle
        case down
        /// Touching, but not reported (palm, unknown start) until it lifts.
        case ignored
    }

    struct Slot {
        var trackingID: Int32 = -1
        var x: Int32 = 0
        var y: Int32 = 0
        var tool: Int32 = MTTool.FINGER
        /// The contact's size on the palm axis (PalmRule), device units.
        var size: Int32 = 0
        var contactID: Int32 = 0
        var life: Life = .idle
        var began = false
        var moved = false
        /// The tool type changed since the last frame (the contact is rebuilt, not moved).
        var retooled = false
    }

    /// The device's slots and one more, `unknownSlot`, that takes what the events of an
    /// ABS_MT_SLOT out of range say: a slot is looked up once per ABS_MT_SLOT, and a coordinate
    /// is written with no bounds or uniqueness check, which an array makes (speed:
    /// docs/architecture.md). `slotStorage.base`: the storage lives while the tracker holds it.
    private let slots: UnsafeMutablePointer<Slot>
    private let slotStorage: OwnedBuffer<Slot>
    private let slotCount: Int
    /// The slot the next events are about (`unknownSlot` after an ABS_MT_SLOT out of range).
    private var current = 0
    /// Every down slot is below this (raised when a contact begins, lowered by `report`): a
    /// frame looks at the slots in use, not at all of a ten-finger panel's.
    private var slotsInUse = 0
    /// How many slots are down (the frame's contacts but the endings: `report` sizes it first).
    private var downSlots = 0
    /// The geometry, out of line: `report` reads it while it writes the frame (held in the
    /// tracker, a copy of the struct was made for each frame).
    private let mapping: UnsafeMutablePointer<DeviceGeometry>
    private let mappingStorage: OwnedBuffer<DeviceGeometry>
    private var nextContactID: Int32 = 1
    /// Contacts that ended or were cancelled since the last SYN_REPORT.
    private var endings: [Contact]
    private var frame: TouchFrame
    /// Whether the frame `report` built last starts a touch sequence (TouchFrame.startsSequence).
    private var startsSequence = false
    /// A contact began since the last frame: only then can the next one start a sequence.
    private var beganSinceReport = false
    /// After a SYN_DROPPED at the end of a read: the next read's events up to a SYN_REPORT are lost.
    private var dropping = false
    private var mtdev: MTDevConverter?
    /// The key whose value means "touching" for single-touch devices.
    private let touchKey: UInt16
    /// Protocol B, or protocol A through mtdev (whose output is protocol B); false: single touch.
    private let multitouch: Bool
    /// Palms by contact size (`palm_mm`): the axis read, and the size from which a contact is a palm.
    public let palm: PalmRule?
    private let palmSize: Int32
    /// Contacts turned into palms (by size or the device's MT_TOOL_PALM) since the tracker was made.
    public private(set) var palmsRejected = 0

    /// Takes each frame with whether it starts a touch sequence (some contact began, none was down
    /// before): `report` knows that as it builds the frame, which then need not be looped over again.
    typealias FrameHandler = (borrowing TouchFrame, _ startsSequence: Bool) -> Void

    public init(info: DeviceInfo, transform: CoordinateTransform = .identity, initialSlots: [SlotSnapshot] = [], palm: PalmRule? = nil) {
        self.info = info
        let geometry = DeviceGeometry(info: info, transform: transform)
        self.palm = palm
        palmSize = palm?.units ?? .max
        let count = max(1, info.slotCount)
        slotCount = count
        slotStorage = OwnedBuffer(repeating: Slot(), count: count + 1)
        slots = slotStorage.base
        mappingStorage = OwnedBuffer(repeating: geometry, count: 1)
        mapping = mappingStorage.base
        endings = []
        endings.reserveCapacity(count * 2)
        frame = TouchFrame(time: 0, surface: geometry.surface)
        frame.contacts.reserveCapacity(count * 2)
        touchKey = info.touchKey
        multitouch = info.touchProtocol != .singleTouch
        if info.touchProtocol == .multitouchA { mtdev = MTDevConverter(info: info) }
        // Every slot's last position, not only the touched ones': the kernel sends a coordinate
        // only when it changes, so a touch landing where its slot's last one was (a reload's new
        // tracker, then a tap at the same height) brings none (issue 37's kiosk tier: y = 0).
        for (i, s) in initialSlots.enumerated() where i < count {
            slots[i] = s.trackingID >= 0 ? Slot(trackingID: s.trackingID, x: s.x, y: s.y, tool: s.tool, life: .ignored)
                                         : Slot(x: s.x, y: s.y, tool: s.tool)
        }
    }

    public var surface: Surface { geometry.surface }

    /// Contacts currently down and reported.
    public var downCount: Int { downSlots }

    /// Where the events of an ABS_MT_SLOT out of range go (never reported).
    private var unknownSlot: Int { slotCount }

    // MARK: Events

    /// Feeds one event; calls `onFrame` at each SYN_REPORT that has contacts to report.
    public mutating func feed(_ e: InputEvent, onFrame: (borrowing TouchFrame) -> Void) {
        withUnsafePointer(to: e) { e in
            feed(UnsafeBufferPointer(start: e, count: 1), onFrame: { frame, _ in onFrame(frame) }, onDropped: { _ in })
        }
    }

    /// Feeds recorded events; calls `onFrame` at each SYN_REPORT that has contacts to report.
    public mutating func feed(_ events: UnsafeBufferPointer<InputEvent>, onFrame: (borrowing TouchFrame) -> Void) {
        feed(events, onFrame: { frame, _ in onFrame(frame) }, onDropped: { _ in })
    }

    /// Feeds the events of one read (or of a recording): one switch per event on its type and
    /// code, the kernel's time converted only for a SYN_REPORT, whose frame goes to `onFrame`.
    /// `onDropped` hears each SYN_DROPPED's time: what the device sends up to the next
    /// SYN_REPORT is lost (that SYN_REPORT's frame cancels the contacts: `droppedInStream`).
    /// Every way in takes this: the daemon's reads, recordings, a single event.
    @inline(__always)
    mutating func feed<Events: InputEvents>(_ events: Events, onFrame: FrameHandler, onDropped: (Double) -> Void) {
        if convertsEvents {
            convert(events, onFrame: onFrame, onDropped: onDropped)
        } else {
            take(events, onFrame: onFrame, onDropped: onDropped)
        }
    }

    /// Protocol A: events go through mtdev (`convert`), the others straight to `take`. A caller
    /// that inlines `take` with its callbacks hands `convert` callbacks of its own: one closure
    /// value for both would have its context built on every call.
    var convertsEvents: Bool { mtdev != nil }

    /// Protocol A events: mtdev turns each frame into protocol B events, which `take` takes.
    @inline(never)
    mutating func convert<Events: InputEvents>(_ events: Events, onFrame: FrameHandler, onDropped: (Double) -> Void) {
        for i in 0..<events.endIndex {
            let e = events.event(at: i)
            if e.type == EV.SYN && e.code == SYN.DROPPED {
                onDropped(e.time)
                dropping = true
            } else if dropping {
                if e.type == EV.SYN && e.code == SYN.REPORT {
                    dropping = false
                    if droppedInStream(time: e.time) { onFrame(frame, startsSequence) }
                }
            } else if let converted = mtdev?.put(e) {
                take(converted, onFrame: onFrame, onDropped: onDropped)
            }
        }
    }

    /// Protocol B and single-touch events (mtdev's output is protocol B). The slot written to
    /// is a pointer kept while the events name no other. Inlined into its caller with the
    /// callbacks: the paths out of line take no closure.
    @inline(__always)
    mutating func take<Events: InputEvents>(_ events: Events, onFrame: FrameHandler, onDropped: (Double) -> Void) {
        let slots = self.slots, multitouch = self.multitouch, unknownSlot = slotCount, palmAxis = palm?.axis ?? .max
        var current = self.current
        var slot = slots + current
        var i = dropping ? nextFrameEvent(events, from: 0) : 0
        while i < events.endIndex {
            let type = events.type(at: i)
            if type == EV.ABS {
                let value = events.value(at: i)
                if multitouch {
                    let code = events.code(at: i)
                    switch code {
                    case ABS.MT_POSITION_X:
                        if slot.pointee.x != value { slot.pointee.x = value; slot.pointee.moved = true }
                    case ABS.MT_POSITION_Y:
                        if slot.pointee.y != value { slot.pointee.y = value; slot.pointee.moved = true }
                    case ABS.MT_SLOT:
                        current = value >= 0 && Int(value) < unknownSlot ? Int(value) : unknownSlot
                        slot = slots + current
                    case ABS.MT_TRACKING_ID:
                        if current != unknownSlot { trackingID(value, slot: current) }
                    case ABS.MT_TOOL_TYPE:
                        if slot.pointee.tool != value { slot.pointee.tool = value; slot.pointee.retooled = true }
                    default:
                        // The palm rule's size axis (a constant case here cost the switch its jump table).
                        if code == palmAxis { slot.pointee.size = value }  // else the legacy ABS_X/ABS_Y, and the rest
                    }
                } else {
                    let code = events.code(at: i)
                    if code == ABS.X {
                        if slots[0].x != value { slots[0].x = value; slots[0].moved = true }
                    } else if code == ABS.Y {
                        if slots[0].y != value { slots[0].y = value; slots[0].moved = true }
                    }
                }
            } else if type == EV.SYN {
                let code = events.code(at: i)
                if code == SYN.REPORT {
                    if dropping {
                        dropping = false
                        if droppedInStream(time: events.time(at: i)) { onFrame(frame, startsSequence) }
                    } else if report(time: events.time(at: i)) {
                        onFrame(frame, startsSequence)
                    }
                } else if code == SYN.DROPPED {
                    onDropped(events.time(at: i))
                    dropping = true
                    i = nextFrameEvent(events, from: i + 1)
                    continue
                }
            } else if type == EV.KEY && !multitouch && events.code(at: i) == touchKey {
                touch(events.value(at: i) != 0)
            }
            i += 1
        }
        self.current = current
    }

    /// While dropping (after a SYN_DROPPED): the index of the next SYN_REPORT (which ends the
    /// loss) or SYN_DROPPED from `start`, or the end of the events (the loss goes on into the next read).
    @inline(never)
    private func nextFrameEvent<Events: InputEvents>(_ events: Events, from start: Int) -> Int {
        var i = start
        while i < events.endIndex {
            if events.type(at: i) == EV.SYN && (events.code(at: i) == SYN.REPORT || events.code(at: i) == SYN.DROPPED) { return i }
            i += 1
        }
        return i
    }

    private mutating func trackingID(_ id: Int32, slot i: Int) {
        if slots[i].life == .down {
            if id == slots[i].trackingID { return }
            end(slot: i, phase: .ended)
        }
        if id < 0 {
            slots[i].life = .idle
            slots[i].trackingID = -1
        } else {
            begin(slot: i, trackingID: id)
        }
    }

    /// BTN_TOUCH (or the device's touch key) of a single-touch device, for slot 0.
    private mutating func touch(_ down: Bool) {
        if down {
            if slots[0].life == .idle { begin(slot: 0, trackingID: 0) }
        } else {
            if slots[0].life == .down { end(slot: 0, phase: .ended) }
            slots[0].life = .idle
        }
    }

    private mutating func begin(slot i: Int, trackingID: Int32) {
        slots[i].trackingID = trackingID
        slots[i].life = .down
        slots[i].began = true
        slots[i].moved = false
        slots[i].retooled = false
        slots[i].contactID = nextContactID
        slotsInUse = max(slotsInUse, i + 1)
        downSlots += 1
        beganSinceReport = true
        nextContactID = nextContactID == Int32.max ? 1 : nextContactID + 1
    }

    /// Records the end of a down contact for the next frame. A contact that began in this
    /// same frame was never reported, so its end is not reported either.
    private mutating func end(slot i: Int, phase: ContactPhase) {
        let s = slots[i]
        slots[i].life = .idle
        downSlots -= 1
        guard !s.began else { slots[i].began = false; return }
        endings.append(contact(s, slot: i, phase: phase))
    }

    private func contact(_ s: Slot, slot i: Int, phase: ContactPhase) -> Contact {
        Self.contact(s, slot: i, phase: phase, mapping)
    }

    @inline(__always)
    private static func contact(_ s: Slot, slot i: Int, phase: ContactPhase, _ geometry: UnsafePointer<DeviceGeometry>) -> Contact {
        let (mm, position) = geometry.pointee.map(x: s.x, y: s.y)
        let tool: ToolType = s.tool == MTTool.PALM ? .palm : s.tool == MTTool.PEN ? .pen : .finger
        return Contact(id: s.contactID, slot: Int32(truncatingIfNeeded: i), phase: phase, tool: tool,
                       raw: Point(x: Double(s.x), y: Double(s.y)), mm: mm, position: position)
    }

    /// Builds the frame for one SYN_REPORT in `frame`; true when it holds contacts. The frame's
    /// contacts are sized first (it holds `downSlots` and the endings, but for palms that never
    /// began) and written through one buffer: one uniqueness check before the mapping, no check
    /// per contact (one after the mapping spilled it; speed: docs/architecture.md).
    /// The previous frame's contacts are overwritten in place, and a contact that did not change
    /// since the frame before, found at the same place in it, only becomes stationary (nothing
    /// mapped or copied). Also works out `startsSequence`, looking at the frame only when a
    /// contact began since the last.
    private mutating func report(time: Double) -> Bool {
        frame.time = time
        let count = endings.count + downSlots
        if frame.contacts.count != count { resizeContacts(count) }
        let slots = self.slots, slotsInUse = self.slotsInUse, geometry = self.mapping, ended = endings.count
        var inUse = 0, palms = 0
        // The endings go first; they are written after the loop (a frame seldom has one).
        let n = frame.contacts.withUnsafeMutableBufferPointer { contacts in
            var n = ended
            for i in 0..<slotsInUse where slots[i].life == .down {
                let slot = slots + i
                let s = slot.pointee
                if s.tool == MTTool.PALM || s.size >= palmSize {
                    // A palm: cancel what was reported, never report what was not.
                    if !s.began { contacts[n] = Self.contact(s, slot: i, phase: .cancelled, geometry); n += 1 }
                    slot.pointee.life = .ignored
                    slot.pointee.began = false
                    palms += 1
                    continue
                }
                inUse = i + 1
                if s.began || s.moved || s.retooled {
                    contacts[n] = Self.contact(s, slot: i, phase: s.began ? .began : s.moved ? .moved : .stationary, geometry)
                    slot.pointee.began = false
                    slot.pointee.moved = false
                    slot.pointee.retooled = false
                } else if contacts[n].id == s.contactID {
                    // Contact ids are never reused: this is the contact as the last frame had it.
                    contacts[n].phase = .stationary
                } else {
                    contacts[n] = Self.contact(s, slot: i, phase: .stationary, geometry)
                }
                n += 1
            }
            return n
        }
        self.slotsInUse = inUse
        if palms > 0 {
            downSlots -= palms
            palmsRejected += palms
            frame.contacts.removeLast(frame.contacts.count - n)
        }
        if ended > 0 {
            for k in 0..<ended { frame.contacts[k] = endings[k] }
            endings.removeAll(keepingCapacity: true)
        }
        startsSequence = beganSinceReport && frame.startsSequence
        beganSinceReport = false
        return n > 0
    }

    /// The frame's contacts made `count` long (placeholders, overwritten by `report`: id 0 is no contact's).
    @inline(never)
    private mutating func resizeContacts(_ count: Int) {
        if frame.contacts.count > count {
            frame.contacts.removeLast(frame.contacts.count - count)
        } else {
            let none = Contact(id: 0, slot: 0, phase: .cancelled, mm: .zero, position: .zero)
            frame.contacts.append(contentsOf: repeatElement(none, count: count - frame.contacts.count))
        }
    }

    // MARK: Interruptions

    /// The device is gone (unplug) or is being closed: every down contact is cancelled in one frame.
    public mutating func cancelAll(time: Double, onFrame: (borrowing TouchFrame) -> Void) {
        cancelAll(time: time) { frame, _ in onFrame(frame) }
    }

    /// `cancelAll`, its frame with whether it starts a sequence (it never does).
    mutating func cancelAll(time: Double, onFrame: FrameHandler) {
        for i in 0..<slotCount {
            if slots[i].life == .down { end(slot: i, phase: .cancelled) }
            slots[i] = Slot()
        }
        current = 0
        if report(time: time) { onFrame(frame, startsSequence) }
    }

    /// After SYN_DROPPED, with the kernel's slot state as libevdev resynchronized it: contacts
    /// that vanished or changed tracking id are cancelled, the others continue (moved to
    /// their current position), and new touches begin.
    /// For protocol A the state is unknown: every contact is cancelled and mtdev starts afresh.
    /// For single touch pass one snapshot (trackingID ≥ 0 when BTN_TOUCH is down).
    public mutating func resync(time: Double, slots snapshot: [SlotSnapshot], onFrame: (borrowing TouchFrame) -> Void) {
        resync(time: time, slots: snapshot) { frame, _ in onFrame(frame) }
    }

    /// `resync`, its frame with whether it starts a sequence.
    mutating func resync(time: Double, slots snapshot: [SlotSnapshot], onFrame: FrameHandler) {
        dropping = false
        if info.touchProtocol == .multitouchA {
            cancelAll(time: time, onFrame: onFrame)
            mtdev = MTDevConverter(info: info)
            return
        }
        for i in 0..<slotCount {
            let s = i < snapshot.count ? snapshot[i] : .empty
            switch slots[i].life {
            case .down where s.trackingID == slots[i].trackingID:
                if slots[i].x != s.x || slots[i].y != s.y { slots[i].moved = true }
                if slots[i].tool != s.tool { slots[i].retooled = true }
                slots[i].x = s.x
                slots[i].y = s.y
                slots[i].tool = s.tool
                continue
            case .ignored where s.trackingID == slots[i].trackingID:
                continue
            case .down:
                end(slot: i, phase: .cancelled)
            case .idle, .ignored:
                break
            }
            slots[i].life = .idle
            slots[i].trackingID = -1
            slots[i].x = s.x
            slots[i].y = s.y
            slots[i].tool = s.tool
            if s.trackingID >= 0 { begin(slot: i, trackingID: s.trackingID) }
        }
        if report(time: time) { onFrame(frame, startsSequence) }
    }

    /// A SYN_DROPPED inside an event stream with no kernel state to ask (a recording): what
    /// was lost is unknown, so every down contact is cancelled and touches still on the
    /// surface are ignored until they lift.
    /// Returns whether its frame holds contacts (`report`).
    @inline(never)
    private mutating func droppedInStream(time: Double) -> Bool {
        for i in 0..<slotCount where slots[i].life == .down {
            end(slot: i, phase: .cancelled)
            slots[i].life = .ignored
        }
        if info.touchProtocol == .multitouchA { mtdev = MTDevConverter(info: info) }
        return report(time: time)
    }
}
