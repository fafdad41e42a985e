import Evdev
import Glibc

/// The few file operations the daemon and its subcommands need, on Glibc: Foundation's
/// FileManager would link all of Foundation (and ICU) into the static binary for three calls.
public enum FileSystem {
    /// The whole file, or nil when it cannot be opened or read (missing, a directory, no permission).
    /// Stops after `maxBytes` + 1 bytes, so a caller can tell "too large" without reading
    /// a device file or a huge file to its end.
    public static func contents(atPath path: String, maxBytes: Int = Int.max) -> [UInt8]? {
        try? FileIO.contents(ofPath: path, maxBytes: maxBytes)
    }

    /// A file the config names (a password, a shape): a regular file of at most `maxBytes`,
    /// opened without blocking — a FIFO, a device or a socket there is refused at once instead of
    /// hanging the reader (the root-run generator at boot among them). The error says why.
    public static func regularFile(atPath path: String, maxBytes: Int) -> Result<[UInt8], RegularFileError> {
        let fd = retryingInterrupts { open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY) }
        guard fd >= 0 else { return .failure(.init("cannot open it: \(Errno.current)")) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { return .failure(.init("cannot stat it: \(Errno.current)")) }
        let kind = st.st_mode & S_IFMT
        guard kind == S_IFREG else {
            let what = kind == S_IFIFO ? "a FIFO" : kind == S_IFDIR ? "a directory" : kind == S_IFCHR || kind == S_IFBLK ? "a device" : "not a file"
            return .failure(.init("not a regular file (\(what))"))
        }
        guard st.st_size <= maxBytes else { return .failure(.init("larger than \(maxBytes) bytes")) }
        do {
            let bytes = try FileIO.readToEnd(fd, maxBytes: maxBytes)
            return bytes.count <= maxBytes ? .success(bytes) : .failure(.init("larger than \(maxBytes) bytes"))
        } catch {
            return .failure(.init("cannot read it: \(error)"))
        }
    }

    public struct RegularFileError: Error, CustomStringConvertible {
        public var description: String
        init(_ d: String) { description = d }
    }

    /// `mkdir -p`: creates `path` and any missing parents (mode 0755 before the umask).
    /// Returns false when a component cannot be created (it exists as a file, no permission).
    @discardableResult
    public static func createDirectories(_ path: String) -> Bool {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component
            if mkdir(prefix, 0o755) != 0 && errno != EEXIST { return false }
            prefix += "/"
        }
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }

    /// The directory part of a path, as NSString.deletingLastPathComponent gives it:
    /// "/run/g/g.sock" → "/run/g", "g.sock" → "", "/g.sock" → "/".
    public static func directory(of path: String) -> String {
        var p = Substring(path)
        while p.count > 1, p.hasSuffix("/") { p = p.dropLast() }
        guard let slash = p.lastIndex(of: "/") else { return "" }
        if slash == p.startIndex { return "/" }
        var dir = p[..<slash]
        while dir.count > 1, dir.hasSuffix("/") { dir = dir.dropLast() }
        return String(dir)
    }

    /// Writes `bytes` to a temporary file beside `path` and renames it over `path`, so readers
    /// never see half a file.
    public static func writeAtomically(_ bytes: [UInt8], toPath path: String) throws(Errno) {
        let temporary = "\(path).tmp-\(getpid())"
        do throws(Errno) {
            let fd = retryingInterrupts { open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
            guard fd >= 0 else { throw Errno.current }
            do throws(Errno) {
                try bytes.withUnsafeBytes { buffer in Result { () throws(Errno) in try FileIO.write(fd, all: buffer) } }.get()
            } catch {
                close(fd)
                throw error
            }
            if close(fd) != 0 { throw Errno.current }
            if rename(temporary, path) != 0 { throw Errno.current }
        } catch {
            unlink(temporary)
            throw error
        }
    }

    /// The names in a directory (without "." and ".."), or nil when it cannot be read.
    public static func entries(ofDirectory path: String) -> [String]? { TextFile.entries(ofDirectory: path) }
}
