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
/// Steady state allocates nothing: slots and the frame's contact array are reused.
public struct ContactTracker {
    public let info: DeviceInfo
    public let geometry: DeviceGeometry

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
        var contactID: Int32 = 0
        var life: Life = .idle
        var began = false
        var moved = false
        /// The tool type changed since the last frame (the contact is rebuilt, not moved).
        var retooled = false
    }

    private var slots: [Slot]
    private var current = 0
    private var nextContactID: Int32 = 1
    /// Contacts that ended or were cancelled since the last SYN_REPORT.
    private var endings: [Contact]
    private var frame: TouchFrame
    /// Whether the frame `report` built last starts a touch sequence (TouchFrame.startsSequence).
    private var startsSequence = false
    /// A contact began since the last frame: only then can the next one start a sequence.
    private var beganSinceReport = false
    /// After a SYN_DROPPED in the stream: drop everything up to the next SYN_REPORT.
    private var dropping = false
    private var mtdev: MTDevConverter?
    /// The key whose value means "touching" for single-touch devices.
    private let touchKey: UInt16
    private let touchProtocol: TouchProtocol

    /// Takes each frame with whether it starts a touch sequence (some contact began, none was down
    /// before): `report` knows that as it builds the frame, which then need not be looped over again.
    typealias FrameHandler = (borrowing TouchFrame, _ startsSequence: Bool) -> Void

    public init(info: DeviceInfo, transform: CoordinateTransform = .identity, initialSlots: [SlotSnapshot] = []) {
        self.info = info
        geometry = DeviceGeometry(info: info, transform: transform)
        let count = max(1, info.slotCount)
        slots = Array(repeating: Slot(), count: count)
        endings = []
        endings.reserveCapacity(count * 2)
        frame = TouchFrame(time: 0, surface: geometry.surface)
        frame.contacts.reserveCapacity(count * 2)
        touchKey = info.touchKey
        touchProtocol = info.touchProtocol
        if info.touchProtocol == .multitouchA { mtdev = MTDevConverter(info: info) }
        for (i, s) in initialSlots.enumerated() where i < slots.count && s.trackingID >= 0 {
            slots[i] = Slot(trackingID: s.trackingID, x: s.x, y: s.y, tool: s.tool, life: .ignored)
        }
    }

    public var surface: Surface { geometry.surface }

    /// Contacts currently down and reported.
    public var downCount: Int {
        var n = 0
        for s in slots where s.life == .down { n += 1 }
        return n
    }

    // MARK: Events

    /// Takes an event that only changes what the next frame will hold (a coordinate, a slot, a
    /// tracking id, a touch key, anything ignored) and returns true; false for one that `feed`
    /// must take: a SYN_REPORT or SYN_DROPPED, any event while dropping, and every event of a
    /// protocol A device (mtdev converts them). Most events are the first kind: the pipeline
    /// takes them without building a frame callback or the event's time (`DevicePipeline.feed`).
    @inline(__always)
    public mutating func absorb(type: UInt16, code: UInt16, value: Int32) -> Bool {
        guard type != EV.SYN, !dropping else { return false }
        switch touchProtocol {
        case .multitouchB: if type == EV.ABS { slotEvent(code: code, value: value) }
        case .singleTouch: singleTouchEvent(type: type, code: code, value: value)
        case .multitouchA: return false
        }
        return true
    }

    /// Feeds the events of one read from `start` on, up to the first that this cannot take: a
    /// SYN_DROPPED, any event while dropping, or any event of a protocol A device (`feed` takes
    /// those, one at a time). Returns its index, or the batch's end. One switch per event on its
    /// type and code; a frame's SYN_REPORT converts the kernel's time and builds the frame.
    mutating func feed(_ events: EventBatch, from start: Int, onFrame: FrameHandler) -> Int {
        guard touchProtocol != .multitouchA else { return start }
        var i = start
        while i < events.endIndex {
            let ev = events.base[i]
            if dropping { return i }
            switch ev.type {
            case EV.SYN:
                if ev.code == SYN.REPORT {
                    if report(time: InputEvent.seconds(ev)) { onFrame(frame, startsSequence) }
                } else if ev.code == SYN.DROPPED {
                    return i
                }
            case EV.ABS where touchProtocol == .multitouchB:
                if ev.code == ABS.MT_TRACKING_ID {
                    slotEvent(code: ev.code, value: ev.value)
                } else {
                    i = slotRun(events, from: i)
                    continue
                }
            default:
                if touchProtocol == .singleTouch { singleTouchEvent(type: ev.type, code: ev.code, value: ev.value) }
            }
            i += 1
        }
        return i
    }

    /// Protocol B events from `start` (an EV_ABS that is not a tracking id) up to the next SYN or
    /// tracking id, as `slotEvent` takes them, with one uniqueness check of the slots for the run
    /// instead of one per event.
    private mutating func slotRun(_ events: EventBatch, from start: Int) -> Int {
        var slot = current
        let end = slots.withUnsafeMutableBufferPointer { slots in
            var i = start
            while i < events.endIndex {
                let ev = events.base[i]
                if ev.type == EV.SYN { break }
                if ev.type == EV.ABS {
                    switch ev.code {
                    case ABS.MT_SLOT: slot = Int(ev.value)
                    case ABS.MT_TRACKING_ID: return i
                    case ABS.MT_POSITION_X, ABS.MT_POSITION_Y, ABS.MT_TOOL_TYPE:
                        if slot >= 0 && slot < slots.count { Self.change(&slots[slot], code: ev.code, value: ev.value) }
                    default: break  // the legacy ABS_X/ABS_Y beside the slots, and the rest
                    }
                }
                i += 1
            }
            return i
        }
        current = slot
        return end
    }

    /// Feeds one event; calls `onFrame` at each SYN_REPORT that has contacts to report.
    public mutating func feed(_ e: InputEvent, onFrame: (borrowing TouchFrame) -> Void) {
        feed(e) { frame, _ in onFrame(frame) }
    }

    /// `feed`, each frame with whether it starts a sequence.
    mutating func feed(_ e: InputEvent, onFrame: FrameHandler) {
        if e.type == EV.SYN && e.code == SYN.DROPPED {
            dropping = true
            return
        }
        if dropping {
            if e.type == EV.SYN && e.code == SYN.REPORT {
                dropping = false
                droppedInStream(time: e.time, onFrame: onFrame)
            }
            return
        }
        if touchProtocol == .multitouchA {
            convert(e, onFrame: onFrame)
        } else {
            take(e, onFrame: onFrame)
        }
    }

    /// A protocol A event, through mtdev. Out of line: mtdev's event buffer on the stack would
    /// cost every frame of the other protocols a stack check.
    @inline(never)
    private mutating func convert(_ e: InputEvent, onFrame: FrameHandler) {
        if let mtdev {
            mtdev.put(e) { out in take(out, onFrame: onFrame) }
        }
    }

    /// One protocol B or single-touch event (mtdev's output is protocol B).
    @inline(__always)
    private mutating func take(_ e: InputEvent, onFrame: FrameHandler) {
        if e.type == EV.SYN {
            if e.code == SYN.REPORT && report(time: e.time) { onFrame(frame, startsSequence) }
        } else if touchProtocol == .singleTouch {
            singleTouchEvent(type: e.type, code: e.code, value: e.value)
        } else if e.type == EV.ABS {
            slotEvent(code: e.code, value: e.value)
        }
    }

    /// One EV_ABS event of a protocol B device, by its code straight into the current slot. The
    /// legacy ABS_X/ABS_Y the kernel sends beside the slots, and any other code, fall through.
    @inline(__always)
    private mutating func slotEvent(code: UInt16, value: Int32) {
        // Written out, not through `change`: its second switch cost 11 instructions a frame.
        switch code {
        case ABS.MT_POSITION_X:
            guard current >= 0 && current < slots.count else { return }
            if slots[current].x != value { slots[current].x = value; slots[current].moved = true }
        case ABS.MT_POSITION_Y:
            guard current >= 0 && current < slots.count else { return }
            if slots[current].y != value { slots[current].y = value; slots[current].moved = true }
        case ABS.MT_SLOT:
            current = Int(value)
        case ABS.MT_TRACKING_ID:
            guard current >= 0 && current < slots.count else { return }
            trackingID(value, slot: current)
        case ABS.MT_TOOL_TYPE:
            guard current >= 0 && current < slots.count else { return }
            if slots[current].tool != value { slots[current].tool = value; slots[current].retooled = true }
        default:
            break
        }
    }

    /// A coordinate or tool event for one slot; any other code changes nothing.
    @inline(__always)
    private static func change(_ s: inout Slot, code: UInt16, value: Int32) {
        switch code {
        case ABS.MT_POSITION_X:
            if s.x != value { s.x = value; s.moved = true }
        case ABS.MT_POSITION_Y:
            if s.y != value { s.y = value; s.moved = true }
        case ABS.MT_TOOL_TYPE:
            if s.tool != value { s.tool = value; s.retooled = true }
        default:
            break
        }
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

    private mutating func begin(slot i: Int, trackingID: Int32) {
        slots[i].trackingID = trackingID
        slots[i].life = .down
        slots[i].began = true
        slots[i].moved = false
        slots[i].retooled = false
        slots[i].contactID = nextContactID
        beganSinceReport = true
        nextContactID = nextContactID == Int32.max ? 1 : nextContactID + 1
    }

    /// Records the end of a down contact for the next frame. A contact that began in this
    /// same frame was never reported, so its end is not reported either.
    private mutating func end(slot i: Int, phase: ContactPhase) {
        let s = slots[i]
        slots[i].life = .idle
        guard !s.began else { slots[i].began = false; return }
        endings.append(contact(s, slot: i, phase: phase))
    }

    private func contact(_ s: Slot, slot i: Int, phase: ContactPhase) -> Contact {
        let (mm, position) = geometry.map(x: s.x, y: s.y)
        let tool: ToolType = s.tool == MTTool.PALM ? .palm : s.tool == MTTool.PEN ? .pen : .finger
        return Contact(id: s.contactID, slot: Int32(i), phase: phase, tool: tool,
                       raw: Point(x: Double(s.x), y: Double(s.y)), mm: mm, position: position)
    }

    @inline(__always)
    private mutating func singleTouchEvent(type: UInt16, code: UInt16, value: Int32) {
        switch type {
        case EV.ABS:
            if code == ABS.X {
                if slots[0].x != value { slots[0].x = value; slots[0].moved = true }
            } else if code == ABS.Y {
                if slots[0].y != value { slots[0].y = value; slots[0].moved = true }
            }
        case EV.KEY where code == touchKey:
            if value != 0 {
                if slots[0].life == .idle { begin(slot: 0, trackingID: 0) }
            } else {
                if slots[0].life == .down { end(slot: 0, phase: .ended) }
                slots[0].life = .idle
            }
        default:
            break
        }
    }

    /// Builds the frame for one SYN_REPORT in `frame`; true when it holds contacts. The previous
    /// frame's contacts are overwritten in place (emptying the array first cost more than building
    /// the frame, one contact a frame), and a contact that did not change since the frame before,
    /// found at the same place in it, only becomes stationary (nothing mapped or copied). Also
    /// works out `startsSequence`, looking at the frame only when a contact began since the last.
    /// (Writing the contacts through one unchecked buffer, the array sized first, cost 12 more a
    /// frame than `put` on the played swipe: one more loop over the slots.)
    private mutating func report(time: Double) -> Bool {
        frame.time = time
        var n = 0
        if !endings.isEmpty {
            for k in endings.indices { put(endings[k], at: n); n += 1 }
            endings.removeAll(keepingCapacity: true)
        }
        for i in slots.indices where slots[i].life == .down {
            let s = slots[i]
            if s.tool == MTTool.PALM {
                // A palm: cancel what was reported, never report what was not.
                if !s.began { put(contact(s, slot: i, phase: .cancelled), at: n); n += 1 }
                slots[i].life = .ignored
                slots[i].began = false
                continue
            }
            if s.began || s.moved || s.retooled {
                put(contact(s, slot: i, phase: s.began ? .began : s.moved ? .moved : .stationary), at: n)
                slots[i].began = false
                slots[i].moved = false
                slots[i].retooled = false
            } else if n < frame.contacts.count && frame.contacts[n].id == s.contactID {
                // Contact ids are never reused: this is the contact as the last frame had it.
                frame.contacts[n].phase = .stationary
            } else {
                put(contact(s, slot: i, phase: .stationary), at: n)
            }
            n += 1
        }
        if n < frame.contacts.count { frame.contacts.removeLast(frame.contacts.count - n) }
        startsSequence = beganSinceReport && frame.startsSequence
        beganSinceReport = false
        return n > 0
    }

    /// Contact `k` of the frame being built (the frame holds at least `k`).
    @inline(__always)
    private mutating func put(_ c: Contact, at k: Int) {
        if k < frame.contacts.count { frame.contacts[k] = c } else { frame.contacts.append(c) }
    }

    // MARK: Interruptions

    /// The device is gone (unplug) or is being closed: every down contact is cancelled in one frame.
    public mutating func cancelAll(time: Double, onFrame: (borrowing TouchFrame) -> Void) {
        cancelAll(time: time) { frame, _ in onFrame(frame) }
    }

    /// `cancelAll`, its frame with whether it starts a sequence (it never does).
    mutating func cancelAll(time: Double, onFrame: FrameHandler) {
        for i in slots.indices {
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
        for i in slots.indices {
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
    private mutating func droppedInStream(time: Double, onFrame: FrameHandler) {
        for i in slots.indices where slots[i].life == .down {
            end(slot: i, phase: .cancelled)
            slots[i].life = .ignored
        }
        if info.touchProtocol == .multitouchA { mtdev = MTDevConverter(info: info) }
        if report(time: time) { onFrame(frame, startsSequence) }
    }
}
