import Glibc

// The one EINTR-safe I/O layer above the pure core: every read/write loop and errno message of
// gestured goes through here. Hand-written rather than swift-system's FileDescriptor: using that
// made the static gestured binary 24 KB larger (35,382,728 vs 35,358,320 bytes, `swift build -c
// release --static-swift-stdlib --product gestured`), and dropping the then unused dependency
// took its 170 KB of linked-in code out.

/// Calls `call` again while it fails with EINTR (a signal arrived during the system call);
/// any other failure comes back as the call's negative result, with errno set.
@inlinable
public func retryingInterrupts<Result: SignedInteger>(_ call: () -> Result) -> Result {
    while true {
        let result = call()
        if result >= 0 || errno != EINTR { return result }
    }
}

/// A failed system call's errno; its description is strerror's text ("No such file or directory").
public struct Errno: Error, CustomStringConvertible, Equatable, Sendable {
    public var rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }
    /// errno as the last failed call left it.
    public static var current: Errno { Errno(rawValue: errno) }
    public var description: String { strerror(rawValue).map { String(cString: $0) } ?? "errno \(rawValue)" }
}

/// Reads and writes on file descriptors, retrying EINTR and short writes.
public enum FileIO {
    /// One read(2) into `buffer`: the count, 0 at the end of the stream.
    public static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        let n = retryingInterrupts { Glibc.read(fd, buffer.baseAddress, buffer.count) }
        if n < 0 { throw Errno.current }
        return n
    }

    /// Reads what a non-blocking descriptor holds now: the count (0 at the end of the
    /// stream), or nil when nothing is waiting (EAGAIN).
    public static func readAvailable(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int? {
        do {
            return try read(fd, into: buffer)
        } catch where error.rawValue == EAGAIN {
            return nil
        }
    }

    /// Everything up to the end, or the first `maxBytes` + 1 bytes: a caller can tell "too
    /// large" without reading a device file or a huge file to its end.
    public static func readToEnd(_ fd: Int32, maxBytes: Int) throws(Errno) -> [UInt8] {
        var bytes: [UInt8] = []
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536, alignment: 1)
        defer { chunk.deallocate() }
        while true {
            let room = maxBytes - bytes.count  // ≥ 0: the loop ends once it is passed
            let want = room >= chunk.count ? chunk.count : room + 1
            let n = try read(fd, into: UnsafeMutableRawBufferPointer(rebasing: chunk[..<want]))
            if n == 0 { return bytes }
            bytes.append(contentsOf: chunk[..<n])
            if bytes.count > maxBytes { return bytes }
        }
    }

    /// One write(2) of `buffer`: the count written (a short write is the caller's to judge).
    public static func write(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) throws(Errno) -> Int {
        let n = retryingInterrupts { Glibc.write(fd, buffer.baseAddress, buffer.count) }
        if n < 0 { throw Errno.current }
        return n
    }

    /// Writes all of `buffer`, through short writes and interruptions.
    public static func write(_ fd: Int32, all buffer: UnsafeRawBufferPointer) throws(Errno) {
        var offset = 0
        while offset < buffer.count {
            offset += try write(fd, UnsafeRawBufferPointer(rebasing: buffer[offset...]))
        }
    }

    /// Opens `path` read-only, reads it with `readToEnd`, closes it.
    public static func contents(ofPath path: String, maxBytes: Int) throws(FileFailure) -> [UInt8] {
        let fd = retryingInterrupts { open(path, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { throw FileFailure(operation: "open", errno: .current) }
        defer { close(fd) }
        do {
            return try readToEnd(fd, maxBytes: maxBytes)
        } catch {
            throw FileFailure(operation: "read", errno: error)
        }
    }
}

/// Which step of a file operation failed, and why: "cannot open: No such file or directory".
public struct FileFailure: Error, CustomStringConvertible, Sendable {
    public var operation: String
    public var errno: Errno
    public var description: String { "cannot \(operation): \(errno)" }
}
