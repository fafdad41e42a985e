import Glibc

/// The few file operations the daemon and its subcommands need, on Glibc: Foundation's
/// FileManager would link all of Foundation (and ICU) into the static binary for three calls.
public enum FileSystem {
    /// The whole file, or nil when it cannot be opened or read (missing, a directory, no permission).
    /// Stops after `maxBytes` + 1 bytes, so a caller can tell "too large" without reading
    /// a device file or a huge file to its end.
    public static func contents(atPath path: String, maxBytes: Int = Int.max) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if n == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<n])
            if bytes.count > maxBytes { return bytes }
        }
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
    /// never see half a file. Throws the errno text on failure.
    public static func writeAtomically(_ bytes: [UInt8], toPath path: String) throws(FileError) {
        let temporary = "\(path).tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw FileError(errno: errno) }
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress.map { $0 + written }, $0.count - written) }
            if n < 0 {
                if errno == EINTR { continue }
                let e = FileError(errno: errno)
                close(fd)
                unlink(temporary)
                throw e
            }
            written += n
        }
        if close(fd) != 0 {
            let e = FileError(errno: errno)
            unlink(temporary)
            throw e
        }
        if rename(temporary, path) != 0 {
            let e = FileError(errno: errno)
            unlink(temporary)
            throw e
        }
    }

    /// The names in a directory (without "." and ".."), or nil when it cannot be read.
    public static func entries(ofDirectory path: String) -> [String]? {
        guard let dir = opendir(path) else { return nil }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    public struct FileError: Error, CustomStringConvertible {
        public var errno: Int32
        public var description: String {
            guard let s = strerror(errno) else { return "errno \(errno)" }
            return String(cString: s)
        }
    }
}
