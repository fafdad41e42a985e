import Glibc
import SystemPackage

// The one EINTR-safe I/O layer above the pure core. swift-system's FileDescriptor retries reads,
// writes and opens interrupted by a signal (retryOnInterrupt) and reports failures as Errno,
// whose description is strerror's text; every read/write loop and errno message of gestured goes
// through here. (It was already linked into the binary: using it added no bytes, measured with
// `swift build -c release --static-swift-stdlib --product gestured`.)

extension FileDescriptor {
    /// Opens `path` for reading (close-on-exec).
    public static func openForReading(_ path: String) throws(Errno) -> FileDescriptor {
        try errnoOnly { try FileDescriptor.open(path, .readOnly, options: .closeOnExec) }
    }

    /// Everything up to the end, or the first `maxBytes` + 1 bytes: a caller can tell "too
    /// large" without reading a device file or a huge file to its end.
    public func readToEnd(maxBytes: Int) throws(Errno) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let room = maxBytes - bytes.count  // ≥ 0: the loop ends once it is passed
            let want = room >= chunk.count ? chunk.count : room + 1
            let n = try errnoOnly { try chunk.withUnsafeMutableBytes { try read(into: UnsafeMutableRawBufferPointer(rebasing: $0[..<want])) } }
            if n == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<n])
            if bytes.count > maxBytes { return bytes }
        }
    }

    /// Reads what a non-blocking descriptor holds now, into `buffer`: the count (0 at the end
    /// of the stream), or nil when nothing is waiting (EAGAIN).
    public func readAvailable(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int? {
        do throws(Errno) {
            return try errnoOnly { try read(into: buffer) }
        } catch .wouldBlock {
            return nil
        }
    }

    /// Writes all of `bytes`, through short writes and interruptions.
    public func write(all bytes: UnsafeRawBufferPointer) throws(Errno) {
        _ = try errnoOnly { try writeAll(bytes) }
    }

    /// Opens `path`, reads it with `readToEnd`, closes it.
    public static func contents(ofPath path: String, maxBytes: Int) throws(FileFailure) -> [UInt8] {
        let fd: FileDescriptor
        do throws(Errno) { fd = try openForReading(path) } catch { throw FileFailure(operation: "open", errno: error) }
        defer { try? fd.close() }
        do throws(Errno) { return try fd.readToEnd(maxBytes: maxBytes) } catch { throw FileFailure(operation: "read", errno: error) }
    }
}

/// Which step of a file operation failed, and why: "cannot open: No such file or directory".
public struct FileFailure: Error, CustomStringConvertible, Sendable {
    public var operation: String
    public var errno: Errno
    public var description: String { "cannot \(operation): \(errno)" }
}

/// Runs a system call that FileDescriptor does not wrap (send, poll, epoll_wait) again while it
/// fails with EINTR, as FileDescriptor's retryOnInterrupt does; any other failure comes back
/// as the call's negative result with errno set.
@inlinable
public func retryingInterrupts<Result: SignedInteger>(_ call: () -> Result) -> Result {
    while true {
        let result = call()
        if result >= 0 || errno != EINTR { return result }
    }
}

/// Runs swift-system calls, which are declared `throws` but throw only Errno, as `throws(Errno)`.
@inline(__always)
public func errnoOnly<T>(_ body: () throws -> T) throws(Errno) -> T {
    do {
        return try body()
    } catch let e as Errno {
        throw e
    } catch {
        throw Errno.ioError  // not reached: swift-system throws only Errno
    }
}
