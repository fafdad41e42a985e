import Evdev
import Glibc

/// The one writer of stdout and stderr: write(2) through FileIO.write(all:), so every
/// line is whole however signals interrupt. `writeOutput`/`writeError` write at once (a pipe
/// reader or the journal sees each line as soon as it is written); an instance collects lines
/// and writes them 64 KiB at a time, for bulk output such as replay's JSON lines.
public final class StandardStream {
    public static func writeOutput(_ text: String) { write(text, to: STDOUT_FILENO) }
    public static func writeError(_ text: String) { write(text, to: STDERR_FILENO) }
    public static func writeError(_ bytes: [UInt8]) { bytes.withUnsafeBufferPointer { writeError($0) } }
    public static func writeError(_ bytes: UnsafeBufferPointer<UInt8>) { try? FileIO.write(STDERR_FILENO, all: UnsafeRawBufferPointer(bytes)) }
    /// `text` and a newline on stdout: the subcommands' print.
    public static func writeLine(_ text: String) { writeOutput(text + "\n") }

    private static func write(_ text: String, to fd: Int32) {
        var text = text
        // stdout/stderr gone (EPIPE, closed): nothing sensible is left to do with the text.
        text.withUTF8 { try? FileIO.write(fd, all: UnsafeRawBufferPointer($0)) }
    }

    private var buffer: [UInt8] = []
    private static let bufferBytes = 65536

    /// A buffered stream onto stdout; `flush()` (or the end of the stream's life) writes what
    /// is collected.
    public init() {
        buffer.reserveCapacity(Self.bufferBytes + 4096)
    }

    deinit { flush() }

    /// Adds `text` and a newline.
    public func line(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        buffer.append(10)
        if buffer.count >= Self.bufferBytes { flush() }
    }

    public func flush() {
        buffer.withUnsafeBytes { try? FileIO.write(STDOUT_FILENO, all: $0) }
        buffer.removeAll(keepingCapacity: true)
    }
}
