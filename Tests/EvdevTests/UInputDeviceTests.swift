import CLibevdev
import Evdev
import Glibc
import Testing

/// The frame encoding behind every virtual device: what one write carries.
@Suite("uinput frames")
struct EventFrameTests {
    @Test("a frame is the kernel's input_event structs ending in SYN_REPORT, in one write")
    func oneWritePerFrame() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        var frame = EventFrame()
        frame.append(type: EV.KEY, code: 29, value: 1)    // KEY_LEFTCTRL
        frame.append(type: EV.KEY, code: 19, value: 1)    // KEY_R
        #expect(frame.send(to: fds[1]) == 0)
        #expect(frame.count == 0)
        frame.append(type: EV.KEY, code: 19, value: 0)
        #expect(frame.send(to: fds[1]) == 0)
        // One read of everything: 3 + 2 events of 24 bytes each (x86_64 and aarch64 layout).
        var events = [input_event](repeating: input_event(), count: 8)
        let n = events.withUnsafeMutableBytes { read(fds[0], $0.baseAddress, $0.count) }
        #expect(MemoryLayout<input_event>.stride == 24)
        #expect(n == 5 * 24)
        let seen = events.prefix(n / 24).map { [Int($0.type), Int($0.code), Int($0.value)] }
        #expect(seen == [[1, 29, 1], [1, 19, 1], [0, 0, 0], [1, 19, 0], [0, 0, 0]])
    }

    @Test("a failed write reports its errno and leaves the frame empty")
    func failedWrite() {
        var frame = EventFrame()
        frame.append(type: EV.KEY, code: 30, value: 1)
        let readOnly = open("/dev/null", O_RDONLY)
        defer { close(readOnly) }
        #expect(frame.send(to: readOnly) == EBADF)
        #expect(frame.count == 0)
    }
}

/// Real virtual devices: need /dev/uinput and root, so they run in the VM (scenario 7 runs
/// every suite whose name contains LiveKernelTests); the host reports them skipped.
@Suite("uinput live kernel devices", .serialized,
       .enabled(if: access("/dev/uinput", R_OK | W_OK) == 0, "needs /dev/uinput (run in the VM)"))
struct UInputLiveKernelTests {
    static let keyboard = UInputSpec(name: "gestured test keyboard", keys: [29, 19])  // KEY_LEFTCTRL, KEY_R

    @Test("a created device has an event node, reads back what is written, and is gone after destroy")
    func writeAndReadBack() throws {
        let uinput = try UInputDevice(Self.keyboard)
        #expect(uinput.devnode.hasPrefix("/dev/input/event"))
        #expect(uinput.syspath.hasPrefix("/sys/devices/virtual/input/input"))
        let reader = try EvdevDevice(devnode: uinput.devnode)
        #expect(reader.info.name == "gestured test keyboard")
        #expect(UInputDevice.isGestured(devnode: uinput.devnode))  // never a candidate for DeviceMonitor
        uinput.append(type: EV.KEY, code: 29, value: 1)
        uinput.append(type: EV.KEY, code: 19, value: 1)
        try uinput.sendFrame()
        uinput.append(type: EV.KEY, code: 19, value: 0)
        uinput.append(type: EV.KEY, code: 29, value: 0)
        try uinput.sendFrame()
        var seen: [[Int]] = []
        for _ in 0..<50 where seen.count < 6 {
            _ = reader.read { seen.append([Int($0.type), Int($0.code), Int($0.value)]) }
            usleep(10_000)
        }
        #expect(seen == [[1, 29, 1], [1, 19, 1], [0, 0, 0], [1, 19, 0], [1, 29, 0], [0, 0, 0]])
        let node = uinput.devnode
        uinput.destroy()
        #expect(!uinput.isAlive)
        #expect(throws: DeviceError.self) { try uinput.sendFrame() }
        var gone = false
        for _ in 0..<100 where !gone {
            gone = access(node, F_OK) != 0
            usleep(20_000)
        }
        #expect(gone)
    }

    @Test("a virtual touchscreen keeps its axis ranges and properties, and DeviceMonitor never offers it")
    func virtualTouchscreen() throws {
        let spec = UInputSpec(name: "gestured test touchscreen", keys: [BTN.TOUCH],
                              axes: [ABS.X: AxisInfo(minimum: 0, maximum: 65535, resolution: 10),
                                     ABS.Y: AxisInfo(minimum: 0, maximum: 32767, resolution: 10)],
                              properties: [InputProp.DIRECT])
        let uinput = try UInputDevice(spec)
        let reader = try EvdevDevice(devnode: uinput.devnode)
        #expect(reader.info.capabilities.axes[ABS.X] == AxisInfo(minimum: 0, maximum: 65535, resolution: 10))
        #expect(reader.info.capabilities.axes[ABS.Y]?.maximum == 32767)
        #expect(reader.info.capabilities.properties.contains(InputProp.DIRECT))
        #expect(reader.info.kind == .touchscreen)
        #expect(UInputDevice.isGestured(devnode: uinput.devnode))
        // A touchscreen made by another program is offered; gestured's own never is.
        let other = try EvemuDevice(recording: Fixture.recording("tablets/Wacom_ISDv4_E6_Finger.desc"))
        defer { other.destroy() }
        #expect(!UInputDevice.isGestured(devnode: other.devnode))
        var offered: [String] = []
        for _ in 0..<100 where !offered.contains(other.devnode) {
            offered = DeviceMonitor().enumerate().map(\.devnode)
            usleep(20_000)
        }
        #expect(offered.contains(other.devnode))
        #expect(!offered.contains(uinput.devnode))
    }
}
