import Glibc

/// Writing whole strings to stdout/stderr with write(2): unbuffered, so a pipe reader (or the
/// journal) sees each line as soon as it is written, as FileHandle did, without Foundation.
public enum StandardStream {
    public static func writeOutput(_ text: String) { write(all: text, to: STDOUT_FILENO) }
    public static func writeError(_ text: String) { write(all: text, to: STDERR_FILENO) }

    private static func write(all text: String, to fd: Int32) {
        var text = text
        text.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = Glibc.write(fd, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return  // stderr gone (EPIPE, closed): nothing sensible left to do
                }
                offset += n
            }
        }
    }
}
