import Glibc

/// Where frames of input events go: a virtual device (UInputDevice), or for benchmarks and tests
/// any file descriptor (FileFrameSink), so that what gestured types can be measured and checked
/// on a machine without /dev/uinput.
public protocol FrameSink: AnyObject {
    /// Adds one event to the frame being built.
    func append(type: UInt16, code: UInt16, value: Int32)
    /// Ends the frame with SYN_REPORT and writes it in one write(2).
    func sendFrame() throws(DeviceError)
}

/// Frames written to a file descriptor the caller owns (a pipe, a file).
public final class FileFrameSink: FrameSink {
    public let fd: Int32
    private var frame = EventFrame()

    public init(fd: Int32) { self.fd = fd }

    public func append(type: UInt16, code: UInt16, value: Int32) {
        frame.append(type: type, code: code, value: value)
    }

    public func sendFrame() throws(DeviceError) {
        let err = frame.send(to: fd)
        if err != 0 { throw DeviceError(devnode: "fd \(fd)", errno: err, message: "cannot write a frame") }
    }
}
