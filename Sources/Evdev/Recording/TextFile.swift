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

    /// Each line of a recording with its number (from 1); a line past `maxLineBytes` is an error.
    static func forEachLine(of text: String, file: String,
                            _ body: (Substring, Int) throws(RecordingError) -> Void) throws(RecordingError) {
        var n = 0
        for raw in lines(text) {
            n += 1
            guard raw.utf8.count <= maxLineBytes else {
                throw RecordingError(file: file, line: n, message: "line longer than \(maxLineBytes) bytes (the limit)")
            }
            try body(raw, n)
        }
    }

    public static func read(_ path: String) throws(RecordingError) -> String {
        let bytes: [UInt8]
        do throws(FileFailure) {
            bytes = try FileIO.contents(ofPath: path, maxBytes: maxBytes)
        } catch {
            throw RecordingError(file: path, line: 0, message: error.description)
        }
        if bytes.count > maxBytes { throw RecordingError(file: path, line: 0, message: "file larger than \(maxBytes >> 20) MB") }
        return String(decoding: bytes, as: UTF8.self)
    }

    public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Names of the entries of a directory (without "." and ".."); empty when it cannot be read.
    public static func list(_ dir: String) -> [String] { entries(ofDirectory: dir) ?? [] }

    /// Names of the entries of a directory (without "." and ".."), or nil when it cannot be read.
    public static func entries(ofDirectory path: String) -> [String]? {
        guard let dir = opendir(path) else { return nil }
        defer { closedir(dir) }
        var names: [String] = []
        // A dirent is only as long as its name: copying `d_name` (a 256-byte tuple) reads past
        // the last entry of readdir's buffer, so the name is read in place up to its NUL.
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        while let entry = readdir(dir) {
            let name = String(cString: (UnsafeRawPointer(entry) + nameOffset).assumingMemoryBound(to: CChar.self))
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
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
