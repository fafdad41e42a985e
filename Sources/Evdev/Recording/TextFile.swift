import Glibc

/// Reading whole text files and listing directories with Glibc (Evdev needs no Foundation).
public enum TextFile {
    /// Recordings are small (a few MB at most); refuse anything absurd rather than exhaust memory.
    static let maxBytes = 256 << 20
    /// The longest line a recording may have; evemu and libinput write lines of a few hundred
    /// bytes at most, and a bound keeps every per-line step small.
    public static let maxLineBytes = 16384

    /// The lines of a text: "\n" or "\r\n" ends one. (Swift's String treats "\r\n" as one
    /// Character, so splitting on "\n" alone would make a whole CRLF file one line.)
    public static func lines(_ text: String) -> [Substring] {
        text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
    }

    public static func read(_ path: String) throws(RecordingError) -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw RecordingError(file: path, line: 0, message: "cannot open: \(errnoText(errno))") }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw RecordingError(file: path, line: 0, message: "cannot read: \(errnoText(errno))")
            }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
            if bytes.count > maxBytes { throw RecordingError(file: path, line: 0, message: "file larger than \(maxBytes >> 20) MB") }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Names of the entries of a directory (without "." and "..").
    public static func list(_ dir: String) -> [String] {
        guard let d = opendir(dir) else { return [] }
        defer { closedir(d) }
        var names: [String] = []
        while let ent = readdir(d) {
            let name = withUnsafePointer(to: ent.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}

func errnoText(_ code: Int32) -> String {
    guard let s = strerror(code) else { return "errno \(code)" }
    return String(cString: s)
}

/// "dir/name.ext" → ("dir", "name.ext").
func splitPath(_ path: String) -> (dir: String, name: String) {
    guard let slash = path.lastIndex(of: "/") else { return (".", path) }
    let dir = String(path[..<slash])
    return (dir.isEmpty ? "/" : dir, String(path[path.index(after: slash)...]))
}

/// "name.ext" → "name" (only the last extension).
func dropExtension(_ name: String) -> String {
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
    return String(name[..<dot])
}
