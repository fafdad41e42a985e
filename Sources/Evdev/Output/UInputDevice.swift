import CLibevdev
import Glibc

/// What a virtual device gestured creates from scratch offers (a clone copies a real device's
/// libevdev instead, see UInputDevice.init(template:)).
public struct UInputSpec: Sendable, Equatable {
    public var name: String
    public var bus: UInt16
    public var vendor: UInt16
    public var product: UInt16
    /// EV_KEY codes (keys and buttons).
    public var keys: [UInt16]
    /// EV_ABS axes and their ranges.
    public var axes: [UInt16: AxisInfo]
    /// INPUT_PROP_* bits.
    public var properties: [UInt16]

    public init(name: String, bus: UInt16 = 0x06 /* BUS_VIRTUAL */, vendor: UInt16 = 0, product: UInt16 = 0,
                keys: [UInt16] = [], axes: [UInt16: AxisInfo] = [:], properties: [UInt16] = []) {
        self.name = name
        self.bus = bus
        self.vendor = vendor
        self.product = product
        self.keys = keys
        self.axes = axes
        self.properties = properties
    }
}

/// A virtual input device made through the kernel's uinput (libevdev's uinput API, on its own
/// /dev/uinput file descriptor). Frames written to it reach every reader of
/// its event node as if a real device had sent them. Destroyed on `destroy()` or deinit; if the
/// process dies, the kernel removes it when /dev/uinput's fd closes.
///
/// Every device gestured makes carries `UInputDevice.phys` as its physical path, so that no
/// gestured (this one or another) ever opens one as an input device: DeviceMonitor skips nodes
/// for which `isGestured(devnode:)` holds, which keeps hotplug from looping.
public final class UInputDevice: FrameSink {
    /// The physical path of every virtual device gestured makes (sysfs: inputN/phys).
    public static let phys = "gestured/virtual"

    public let name: String
    /// /dev/input/eventN.
    public let devnode: String
    /// The input device's sysfs path (/sys/devices/virtual/input/inputN).
    public let syspath: String
    /// The /dev/uinput file descriptor: frames are written to it; closing it removes the device.
    private let fd: Int32
    private var uidev: OpaquePointer?
    private var frame = EventFrame()

    /// Creates the device as a copy of `template`, a configured libevdev (name, ids, event codes,
    /// axis ranges, properties); the template stays the caller's. gestured opens /dev/uinput
    /// itself (rather than LIBEVDEV_UINPUT_OPEN_MANAGED) to set the phys mark first, which
    /// libevdev does not copy.
    public init(template: OpaquePointer) throws(DeviceError) {
        let name = libevdev_get_name(template).map { String(cString: $0) } ?? ""
        let fd = Glibc.open("/dev/uinput", O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { throw DeviceError(devnode: "/dev/uinput", errno: errno, message: "cannot open (needed for the virtual device '\(name)')") }
        guard gestured_uinput_set_phys(fd, Self.phys) == 0 else {
            let err = errno
            Glibc.close(fd)
            throw DeviceError(devnode: "/dev/uinput", errno: err, message: "cannot set the phys of the virtual device '\(name)'")
        }
        var created: OpaquePointer?
        let rc = libevdev_uinput_create_from_device(template, fd, &created)
        guard rc == 0, let created else {
            Glibc.close(fd)
            throw DeviceError(devnode: "/dev/uinput", errno: -rc, message: "cannot create the virtual device '\(name)'")
        }
        guard let node = libevdev_uinput_get_devnode(created), let sys = libevdev_uinput_get_syspath(created) else {
            libevdev_uinput_destroy(created)
            Glibc.close(fd)
            throw DeviceError(devnode: "/dev/uinput", errno: ENODEV, message: "the virtual device '\(name)' has no event node")
        }
        self.name = name
        self.fd = fd
        devnode = String(cString: node)
        syspath = String(cString: sys)
        uidev = created
    }

    public convenience init(_ spec: UInputSpec) throws(DeviceError) {
        guard let dev = libevdev_new() else {
            throw DeviceError(devnode: "/dev/uinput", errno: ENOMEM, message: "cannot describe the virtual device '\(spec.name)'")
        }
        defer { libevdev_free(dev) }
        libevdev_set_name(dev, spec.name)
        libevdev_set_id_bustype(dev, Int32(spec.bus))
        libevdev_set_id_vendor(dev, Int32(spec.vendor))
        libevdev_set_id_product(dev, Int32(spec.product))
        for key in spec.keys { libevdev_enable_event_code(dev, UInt32(EV.KEY), UInt32(key), nil) }
        for (code, axis) in spec.axes {
            var abs = input_absinfo(value: axis.minimum, minimum: axis.minimum, maximum: axis.maximum,
                                    fuzz: axis.fuzz, flat: axis.flat, resolution: axis.resolution)
            libevdev_enable_event_code(dev, UInt32(EV.ABS), UInt32(code), &abs)
        }
        for p in spec.properties { libevdev_enable_property(dev, UInt32(p)) }
        try self.init(template: dev)
    }

    deinit { destroy() }

    /// True when the event node belongs to a virtual device some gestured made (its input
    /// device's phys, read from sysfs, is `phys`).
    public static func isGestured(devnode: String) -> Bool {
        let name = splitPath(devnode).name
        guard let phys = try? TextFile.read("/sys/class/input/\(name)/device/phys") else { return false }
        return phys.hasPrefix(Self.phys)
    }

    public var isAlive: Bool { uidev != nil }

    /// Adds one event to the frame being built.
    public func append(type: UInt16, code: UInt16, value: Int32) {
        frame.append(type: type, code: code, value: value)
    }

    /// Ends the frame with SYN_REPORT and writes it in one write(2).
    public func sendFrame() throws(DeviceError) {
        guard uidev != nil else {
            throw DeviceError(devnode: devnode, errno: ENODEV, message: "the virtual device '\(name)' was destroyed")
        }
        let err = frame.send(to: fd)
        if err != 0 { throw DeviceError(devnode: devnode, errno: err, message: "cannot write to the virtual device '\(name)'") }
    }

    /// Removes the device from the system (idempotent).
    public func destroy() {
        guard let uidev else { return }
        libevdev_uinput_destroy(uidev)  // UI_DEV_DESTROY; the fd is ours to close
        Glibc.close(fd)
        self.uidev = nil
    }
}
