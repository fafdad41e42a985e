import CLibevdev
import Evdev
import GestureKit
import Glibc
import Testing

/// What a passthrough clone writes for the relay's decisions, read back from a pipe
/// (FileFrameSink: the same bytes a uinput device gets; the VM scenarios 10–13 check what
/// libinput makes of them).
@Suite("passthrough clone")
struct TouchCloneTests {
    let fds: [Int32]
    let clone: TouchClone

    init() {
        var fds: [Int32] = [0, 0]
        _ = pipe(&fds)
        self.fds = fds
        clone = TouchClone(sink: FileFrameSink(fd: fds[1]), slotCount: 4)
    }

    /// Records the device's events, writes the relay's outputs, returns what was written.
    func step(_ read: [(UInt16, UInt16, Int32)], _ outputs: [TouchRelay.Output]) throws -> [[Int]] {
        for (t, c, v) in read { clone.record(InputEvent(time: 0, type: t, code: c, value: v)) }
        try clone.write(outputs)
        var events = [input_event](repeating: input_event(), count: 64)
        let flags = fcntl(fds[0], F_GETFL)
        _ = fcntl(fds[0], F_SETFL, flags | O_NONBLOCK)
        let n = events.withUnsafeMutableBytes { Glibc.read(fds[0], $0.baseAddress, $0.count) }
        return events.prefix(max(0, n) / MemoryLayout<input_event>.stride).map { [Int($0.type), Int($0.code), Int($0.value)] }
    }

    static let down: [(UInt16, UInt16, Int32)] = [(EV.ABS, ABS.MT_SLOT, 1), (EV.ABS, ABS.MT_TRACKING_ID, 900),
                                                  (EV.ABS, ABS.MT_POSITION_X, 100), (EV.ABS, ABS.MT_POSITION_Y, 200),
                                                  (EV.KEY, BTN.TOUCH, 1), (EV.ABS, ABS.X, 100), (EV.ABS, ABS.Y, 200)]

    @Test("a forwarded frame goes out whole, with the clone's own tracking id and BTN_TOUCH")
    func forwarded() throws {
        defer { close(fds[0]); close(fds[1]) }
        #expect(try step(Self.down, [.forward(slot: 1)])
            == [[3, 0x2f, 1], [3, 0x39, 1], [3, 0x35, 100], [3, 0x36, 200], [3, 0, 100], [3, 1, 200], [1, 0x14a, 1], [0, 0, 0]])
        #expect(try step([(EV.ABS, ABS.MT_SLOT, 1), (EV.ABS, ABS.MT_TRACKING_ID, -1), (EV.KEY, BTN.TOUCH, 0)], [.forward(slot: 1)])
            == [[3, 0x39, -1], [1, 0x14a, 0], [0, 0, 0]])
    }

    /// Each kernel drops a position equal to the one it holds. The device's held 100/200 from a
    /// touch the app was not given (withheld, as in a passthrough none mode); a new touch there
    /// comes without a position, and the clone — which holds 0 — writes it.
    @Test("a contact that begins where the device held its last one gets that position from the clone")
    func beginsWhereTheDeviceHeldOne() throws {
        defer { close(fds[0]); close(fds[1]) }
        #expect(try step(Self.down, []).isEmpty)
        _ = try step([(EV.ABS, ABS.MT_SLOT, 1), (EV.ABS, ABS.MT_TRACKING_ID, -1), (EV.KEY, BTN.TOUCH, 0)], [])
        #expect(try step([(EV.ABS, ABS.MT_SLOT, 1), (EV.ABS, ABS.MT_TRACKING_ID, 901), (EV.KEY, BTN.TOUCH, 1)], [.forward(slot: 1)])
            == [[3, 0x2f, 1], [3, 0x39, 1], [3, 0x35, 100], [3, 0x36, 200], [1, 0x14a, 1], [0, 0, 0]])
        // Once the clone holds it too, the same place sends nothing more.
        _ = try step([(EV.ABS, ABS.MT_SLOT, 1), (EV.ABS, ABS.MT_TRACKING_ID, -1)], [.forward(slot: 1)])
        #expect(try step([(EV.ABS, ABS.MT_SLOT, 1), (EV.ABS, ABS.MT_TRACKING_ID, 902)], [.forward(slot: 1)])
            == [[3, 0x39, 2], [1, 0x14a, 1], [0, 0, 0]])
    }

    /// A clone made after a restart: the device holds slot 0 at 30/40 (`startAt`), a new uinput
    /// device 0/0. A touch at the same place has no position from the device; the clone writes it.
    @Test("a clone made while the device holds a position writes it for a contact there")
    func restartedWhereTheDeviceHeldOne() throws {
        defer { close(fds[0]); close(fds[1]) }
        clone.startAt([(30, 40)])
        #expect(try step([(EV.ABS, ABS.MT_SLOT, 0), (EV.ABS, ABS.MT_TRACKING_ID, 5)], [.forward(slot: 0)])
            == [[3, 0x2f, 0], [3, 0x39, 1], [3, 0x35, 30], [3, 0x36, 40], [1, 0x14a, 1], [0, 0, 0]])
    }

    @Test("a cancel is a palm in a frame of its own, then the release; the next contact is a finger again")
    func cancelled() throws {
        defer { close(fds[0]); close(fds[1]) }
        _ = try step(Self.down, [.forward(slot: 1)])
        #expect(try step([(EV.ABS, ABS.MT_SLOT, 1), (EV.ABS, ABS.MT_TRACKING_ID, -1)], [.cancel(slot: 1), .sync])
            == [[3, 0x37, 2], [0, 0, 0], [3, 0x39, -1], [1, 0x14a, 0], [0, 0, 0]])
        #expect(try step([(EV.ABS, ABS.MT_SLOT, 1), (EV.ABS, ABS.MT_TRACKING_ID, 901)], [.forward(slot: 1)])
            == [[3, 0x37, 0], [3, 0x39, 2], [1, 0x14a, 1], [0, 0, 0]])
    }

    @Test("a held contact's events and the single-touch axes stay back; a late delivery is its own frames")
    func held() throws {
        defer { close(fds[0]); close(fds[1]) }
        #expect(try step(Self.down, []).isEmpty)
        #expect(try step([], [.begin(slot: 1, x: 100, y: 200), .sync, .lift(slot: 1), .sync])
            == [[3, 0x2f, 1], [3, 0x39, 1], [3, 0x35, 100], [3, 0x36, 200], [1, 0x14a, 1], [0, 0, 0],
                [3, 0x39, -1], [1, 0x14a, 0], [0, 0, 0]])
    }
}
