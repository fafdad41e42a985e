import GestureKit
import Glibc

/// Text written byte by byte through a pointer into memory its caller sized: the bound
/// command's environment and the log lines of every command's run, at a small part of what
/// String interpolation and each value's `description` cost (speed: docs/architecture.md).
///
/// Invariant: `cursor` never passes `end`, the end of the memory the caller sized. Debug builds
/// (the tests) check it at every write and stop on the write that would pass it; release builds
/// trust the caller's sizing, as the daemon ships (ByteWriterTests).
struct ByteWriter {
    private(set) var cursor: UnsafeMutablePointer<UInt8>
    /// One past the last byte that may be written.
    let end: UnsafeMutablePointer<UInt8>

    init(_ start: UnsafeMutablePointer<UInt8>, capacity: Int) {
        cursor = start
        end = start + capacity
    }

    /// Bytes that can still be written.
    var room: Int { end - cursor }

    /// `n` more bytes fit (debug builds stop when they do not).
    @inline(__always)
    private func fits(_ n: Int) {
        assert(n <= end - cursor, "ByteWriter: writing \(n) bytes with \(end - cursor) left")
    }

    /// Bytes written since `start`.
    func count(from start: UnsafeMutablePointer<UInt8>) -> Int { cursor - start }

    mutating func write(_ text: StaticString) {
        fits(text.utf8CodeUnitCount)
        cursor.update(from: text.utf8Start, count: text.utf8CodeUnitCount)
        cursor += text.utf8CodeUnitCount
    }

    mutating func write(_ text: String) {
        let done = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            write(bytes)
            return true
        }
        if done == nil { for b in text.utf8 { write(byte: b) } }
    }

    /// `text` up to its first NUL, as a C string reads it (a NUL would end the value early
    /// anyway, and must not start another entry of a NUL-separated list).
    mutating func writeCString(_ text: String) {
        let start = cursor
        write(text)
        if let nul = memchr(start, 0, cursor - start) { cursor = nul.assumingMemoryBound(to: UInt8.self) }
    }

    mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        fits(bytes.count)
        if let base = bytes.baseAddress { cursor.update(from: base, count: bytes.count) }
        cursor += bytes.count
    }

    /// Moves past `count` bytes the caller wrote at `cursor` itself.
    mutating func skip(_ count: Int) {
        fits(count)
        cursor += count
    }

    mutating func write(byte: UInt8) {
        fits(1)
        cursor.pointee = byte
        cursor += 1
    }

    /// A number is written, then checked (DecimalText writes up to `DecimalText.maxBytes`, most
    /// numbers far fewer, and a caller sizes for the numbers it writes).
    mutating func write(_ n: Int) {
        let count = DecimalText.writeInteger(Int64(n), to: cursor)
        fits(count)
        cursor += count
    }

    /// Rounded to `places` decimals, without trailing zeros (DecimalText).
    mutating func write(_ x: Double, places: Int) {
        let count = DecimalText.write(x, places: places, to: cursor)
        fits(count)
        cursor += count
    }

    /// A String of at most `capacity` bytes of UTF-8, written by `body` straight into its storage.
    static func string(capacity: Int, _ body: (inout ByteWriter) -> Void) -> String {
        String(unsafeUninitializedCapacity: capacity) { buffer in
            var w = ByteWriter(buffer.baseAddress!, capacity: capacity)
            body(&w)
            return w.count(from: buffer.baseAddress!)
        }
    }

    /// Bytes, at most `capacity` of them, written by `body` straight into an array's storage:
    /// one allocation and no copy (the array keeps the capacity), and no scratch memory too large
    /// for the stack (speed: docs/architecture.md).
    static func bytes(capacity: Int, _ body: (inout ByteWriter) -> Void) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
            var w = ByteWriter(buffer.baseAddress!, capacity: capacity)
            body(&w)
            count = w.count(from: buffer.baseAddress!)
        }
    }

    /// `body` writes at most `capacity` bytes into scratch memory (on the stack unless large),
    /// then `use` reads them: a buffer sized for the worst case is no allocation, and the
    /// array (if any) gets only what was written.
    static func withScratch<R>(capacity: Int, _ body: (inout ByteWriter) -> Void, _ use: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            var w = ByteWriter(buffer.baseAddress!, capacity: capacity)
            body(&w)
            return use(UnsafeBufferPointer(rebasing: buffer[..<w.count(from: buffer.baseAddress!)]))
        }
    }
}
