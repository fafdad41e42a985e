import CLibevdev
import CLinux
import GestureKit
import Glibc

/// Why a device could not be opened or read.
public struct DeviceError: Error, CustomStringConvertible, Sendable {
    public var devnode: String
    public var errno: Int32
    public var message: String

    public init(devnode: String, errno: Int32, message: String) {
        self.devnode = devnode
        self.errno = errno
        self.message = message
    }

    public var description: String { "\(devnode): \(message): \(Errno(rawValue: errno))" }
}

/// What one `EvdevDevice.read` call found.
public enum ReadOutcome: Sendable, Equatable {
    /// The batch limit was reached; more events may be waiting (read again).
    case more
    /// Drained: wait for the fd to become readable.
    case wouldBlock
    /// The kernel dropped events (SYN_DROPPED). libevdev has resynchronized its state;
    /// pass `slotSnapshot()` to DevicePipeline.dropped so contacts are resynchronized and
    /// in-flight gestures cancelled.
    case dropped(time: Double)
    /// The device is gone (ENODEV): call DevicePipeline.deviceLost and close it.
    case unplugged
    case failed(errno: Int32)
}

/// An open evdev node, described (and grabbed) through libevdev, read with read(2) in batches,
/// with kernel timestamps on CLOCK_MONOTONIC.
public final class EvdevDevice {
    public let devnode: String
    public let fd: Int32
    public let info: DeviceInfo
    public private(set) var isGrabbed = false
    /// libevdev's description of the device, read at open (PanelReading reads it too).
    let dev: OpaquePointer

    /// Opens `devnode` O_RDONLY|O_NONBLOCK|O_CLOEXEC; `properties` are its udev properties
    /// (they decide the kind when udev has classified the device, and carry the calibration).
    public init(devnode: String, properties: [String: String] = [:], grab: Bool = false) throws(DeviceError) {
        self.devnode = devnode
        let fd = Glibc.open(devnode, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw DeviceError(devnode: devnode, errno: errno, message: "cannot open") }
        var created: OpaquePointer?
        let rc = libevdev_new_from_fd(fd, &created)
        guard rc == 0, let created else {
            Glibc.close(fd)
            throw DeviceError(devnode: devnode, errno: -rc, message: "not an evdev device")
        }
        self.fd = fd
        dev = created
        let clock = libevdev_set_clock_id(dev, CLOCK_MONOTONIC)
        if clock != 0 {
            libevdev_free(dev)
            Glibc.close(fd)
            throw DeviceError(devnode: devnode, errno: -clock, message: "cannot switch to CLOCK_MONOTONIC")
        }
        info = EvdevDevice.describe(dev, devnode: devnode, properties: properties)
        if grab {
            let g = libevdev_grab(dev, LIBEVDEV_GRAB)
            if g != 0 {
                libevdev_free(dev)
                Glibc.close(fd)
                throw DeviceError(devnode: devnode, errno: -g, message: "cannot grab (another process holds it?)")
            }
            isGrabbed = true
        }
        batch = .allocate(capacity: Self.batchCapacity)
    }

    deinit {
        if isGrabbed { _ = libevdev_grab(dev, LIBEVDEV_UNGRAB) }
        libevdev_free(dev)
        batch.deallocate()
        Glibc.close(fd)
    }

    /// Takes or releases the exclusive grab (EVIOCGRAB) on the open device.
    public func setGrabbed(_ grab: Bool) throws(DeviceError) {
        guard grab != isGrabbed else { return }
        let g = libevdev_grab(dev, grab ? LIBEVDEV_GRAB : LIBEVDEV_UNGRAB)
        if g != 0 { throw DeviceError(devnode: devnode, errno: -g, message: grab ? "cannot grab (another process holds it?)" : "cannot release the grab") }
        isGrabbed = grab
    }

    /// True when another process holds an exclusive grab (EVIOCGRAB fails with EBUSY).
    /// Only meaningful when this device is not grabbed itself.
    public func isGrabbedElsewhere() -> Bool {
        guard !isGrabbed else { return false }
        let g = libevdev_grab(dev, LIBEVDEV_GRAB)
        if g == 0 {
            _ = libevdev_grab(dev, LIBEVDEV_UNGRAB)
            return false
        }
        return g == -EBUSY
    }

    /// Events taken per read(2): one read drains a frame of ten contacts (≈ 50 events) and more.
    public static let batchCapacity = 256
    /// Allocated last in init, so that a failed open leaks nothing.
    private let batch: UnsafeMutablePointer<input_event>

    /// Reads what the kernel has queued, up to `limit` events (so that one busy device cannot
    /// starve the others), with ONE read(2) of many input_events. libevdev_next_event is not
    /// used on this path: on a non-blocking fd it calls read(2) for every single event, plus one
    /// more that fails with EAGAIN (docs/performance.md, system calls per 1,000 events).
    /// evdev's read returns every whole event queued up to the buffer's size, so a short read
    /// means the queue was empty: `.wouldBlock` without a second read that would fail; epoll is
    /// level-triggered and wakes the loop again for what arrives later.
    /// `events`: what the read took, up to a SYN_DROPPED (valid until the next read).
    public func read(limit: Int = EvdevDevice.batchCapacity) -> (events: EventBatch, outcome: ReadOutcome) {
        let want = max(1, min(limit, Self.batchCapacity))
        let n = gestured_read(fd, batch, want * MemoryLayout<input_event>.stride)  // shim.h: no cancellation point
        if n <= 0 {
            let none = EventBatch(base: batch, count: 0)
            if n == 0 { return (none, .unplugged) }  // evdev never returns 0 for a buffer of whole events
            switch errno {
            case EAGAIN: return (none, .wouldBlock)
            case EINTR: return (none, .more)
            case ENODEV: return (none, .unplugged)
            case let e: return (none, .failed(errno: e))
            }
        }
        let count = n / MemoryLayout<input_event>.stride
        // A while loop: `for i in 0..<count where …` also checks i against the range at each
        // event (speed: docs/architecture.md).
        var i = 0
        while i < count {
            if batch[i].type == EV.SYN && batch[i].code == SYN.DROPPED {
                // The kernel's buffer overflowed. Like libevdev: the rest of the queue is stale
                // (it continues a state we no longer know), so it is drained and dropped; the
                // caller resynchronizes from the kernel's current state (slotSnapshot()).
                let before = EventBatch(base: batch, count: i)
                if drainQueue() == -ENODEV { return (before, .unplugged) }
                return (before, .dropped(time: InputEvent.seconds(batch[i])))
            }
            i += 1
        }
        return (EventBatch(base: batch, count: count), count == want ? .more : .wouldBlock)
    }

    /// `read(limit:)`, its events handed out one at a time.
    public func read(limit: Int = EvdevDevice.batchCapacity, into deliver: (InputEvent) -> Void) -> ReadOutcome {
        let (events, outcome) = read(limit: limit)
        for e in events { deliver(e) }
        return outcome
    }

    /// Reads and discards what is queued (bounded: a device that keeps sending cannot hold us).
    /// Returns -ENODEV when the device is gone, else 0.
    private func drainQueue() -> Int32 {
        for _ in 0..<16 {
            let n = Glibc.read(fd, batch, Self.batchCapacity * MemoryLayout<input_event>.stride)
            if n < 0 { return errno == ENODEV ? -ENODEV : 0 }
            if n == 0 { return -ENODEV }
            if n < Self.batchCapacity * MemoryLayout<input_event>.stride { return 0 }
        }
        return 0
    }

    /// The kernel's current contacts, per slot (for touches already down when the device was
    /// opened, and for resynchronizing after SYN_DROPPED). Asked of the kernel each time through
    /// a fresh libevdev (its ioctls): `read` bypasses libevdev, so the long-lived handle's state
    /// is the state at open.
    public func slotSnapshot() -> [SlotSnapshot] {
        var fresh: OpaquePointer?
        guard libevdev_new_from_fd(fd, &fresh) == 0, let fresh else { return [] }
        defer { libevdev_free(fresh) }
        return Self.slots(of: fresh, info: info)
    }

    static func slots(of dev: OpaquePointer, info: DeviceInfo) -> [SlotSnapshot] {
        switch info.touchProtocol {
        case .multitouchB:
            let count = max(0, Int(libevdev_get_num_slots(dev)))
            var slots: [SlotSnapshot] = []
            slots.reserveCapacity(count)
            for s in 0..<count {
                let slot = UInt32(s)
                slots.append(SlotSnapshot(
                    trackingID: libevdev_get_slot_value(dev, slot, UInt32(ABS.MT_TRACKING_ID)),
                    x: libevdev_get_slot_value(dev, slot, UInt32(ABS.MT_POSITION_X)),
                    y: libevdev_get_slot_value(dev, slot, UInt32(ABS.MT_POSITION_Y)),
                    tool: libevdev_get_slot_value(dev, slot, UInt32(ABS.MT_TOOL_TYPE))))
            }
            return slots
        case .singleTouch:
            let touching = libevdev_get_event_value(dev, UInt32(EV.KEY), UInt32(info.touchKey)) != 0
            return [SlotSnapshot(trackingID: touching ? 0 : -1,
                                 x: libevdev_get_event_value(dev, UInt32(EV.ABS), UInt32(ABS.X)),
                                 y: libevdev_get_event_value(dev, UInt32(EV.ABS), UInt32(ABS.Y)))]
        case .multitouchA:
            // No per-contact state in the kernel: the tracker cancels everything and restarts mtdev.
            return []
        }
    }

    /// Capabilities as libevdev sees them; only the codes gestured reads are asked about.
    static func describe(_ dev: OpaquePointer, devnode: String, properties: [String: String]) -> DeviceInfo {
        var caps = DeviceCapabilities()
        for type in [EV.SYN, EV.KEY, EV.REL, EV.ABS, EV.MSC] where libevdev_has_event_type(dev, UInt32(type)) != 0 {
            caps.eventTypes.insert(type)
        }
        let keys: [UInt16] = [BTN.LEFT, BTN.TOOL_PEN, BTN.STYLUS, BTN.TOOL_FINGER, BTN.TOUCH, BTN.TOOL_DOUBLETAP,
                              BTN.TOOL_TRIPLETAP, BTN.TOOL_QUADTAP, BTN.TOOL_QUINTTAP]
        for k in keys where libevdev_has_event_code(dev, UInt32(EV.KEY), UInt32(k)) != 0 { caps.keys.insert(k) }
        for code in UInt16(0)...UInt16(0x3f) where libevdev_has_event_code(dev, UInt32(EV.ABS), UInt32(code)) != 0 {
            guard let a = libevdev_get_abs_info(dev, UInt32(code)) else { continue }
            caps.axes[code] = AxisInfo(minimum: a.pointee.minimum, maximum: a.pointee.maximum, fuzz: a.pointee.fuzz,
                                       flat: a.pointee.flat, resolution: a.pointee.resolution)
        }
        for p in [InputProp.POINTER, InputProp.DIRECT, InputProp.BUTTONPAD, InputProp.SEMI_MT]
            where libevdev_has_property(dev, UInt32(p)) != 0 {
            caps.properties.insert(p)
        }
        // The bytes as the kernel has them, so that invalid UTF-8 shows as \xNN rather than U+FFFD.
        let name = libevdev_get_name(dev).map { c in Printable.escaping(bytes: UnsafeRawBufferPointer(start: c, count: strlen(c))) } ?? ""
        return DeviceInfo(
            name: name, bus: UInt16(truncatingIfNeeded: libevdev_get_id_bustype(dev)),
            vendor: UInt16(truncatingIfNeeded: libevdev_get_id_vendor(dev)),
            product: UInt16(truncatingIfNeeded: libevdev_get_id_product(dev)),
            version: UInt16(truncatingIfNeeded: libevdev_get_id_version(dev)),
            capabilities: caps, properties: properties, devnode: devnode)
    }
}
