import CLibevdev
import Glibc

/// The events of one frame, encoded as the kernel's `struct input_event`s and written with one
/// write(2) ending in SYN_REPORT. libevdev_uinput_write_event costs one syscall per event; the
/// kernel's uinput_write takes any whole number of events per write, so a frame is one syscall.
/// The buffer keeps its capacity: after the first frames, appending and writing allocate nothing.
public struct EventFrame {
    private var events: [input_event] = []

    public init(capacity: Int = 64) { events.reserveCapacity(capacity) }

    public var count: Int { events.count }

    /// Adds one event to the frame. The time is left zero: uinput stamps events itself.
    public mutating func append(type: UInt16, code: UInt16, value: Int32) {
        events.append(input_event(time: timeval(), type: type, code: code, value: value))
    }

    /// Ends the frame with SYN_REPORT and writes it to `fd` in one write(2); the frame is empty
    /// afterwards, whatever happened. Returns 0, or the errno of a failed or short write.
    public mutating func send(to fd: Int32) -> Int32 {
        append(type: EV.SYN, code: SYN.REPORT, value: 0)
        defer { events.removeAll(keepingCapacity: true) }
        let written = events.withUnsafeBytes { bytes in Result { () throws(Errno) in try FileIO.write(fd, bytes) == bytes.count } }
        switch written {
        case .success(let whole): return whole ? 0 : EIO
        case .failure(let error): return error.rawValue
        }
    }
}
