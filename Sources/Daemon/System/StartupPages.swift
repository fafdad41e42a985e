import Glibc

/// Lets go of the code pages start-up mapped. Reading the config,
/// parsing arguments, enumerating devices and the loader's own work run once, yet the pages
/// they ran from stay mapped, each fault having mapped its 64 KiB neighbourhood with it (the
/// kernel's fault-around): 7 of the idle daemon's 11 MB resident (docs/performance.md).
/// Once ready, the daemon unmaps the clean pages of its read-only file mappings (its binary's and
/// the shared libraries' code and constants): they stay in the page cache, and what runs afterwards is mapped again
/// by its next page fault (a minor fault, no I/O).
enum StartupPages {
    /// Advises MADV_DONTNEED on every read-only (code or constant), file-backed, private mapping
    /// that holds no private (copied) page: the relocated RELRO parts, which do, are kept.
    /// Returns the bytes it advised.
    @discardableResult
    static func release() -> Int {
        guard let bytes = FileSystem.contents(atPath: "/proc/self/smaps") else { return 0 }
        var released = 0
        var candidate: (start: UInt, end: UInt)?
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            let fields = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: true)
            guard let first = fields.first else { continue }
            if let dash = first.firstIndex(of: UInt8(ascii: "-")), fields.count >= 5 {
                // A mapping's header: "start-end perms offset dev inode [path]".
                candidate = nil
                guard fields.count >= 6, fields[1].elementsEqual("r-xp".utf8) || fields[1].elementsEqual("r--p".utf8),
                      fields[5].first == UInt8(ascii: "/"),
                      let start = UInt(String(decoding: first[..<dash], as: UTF8.self), radix: 16),
                      let end = UInt(String(decoding: first[(dash + 1)...], as: UTF8.self), radix: 16)
                else { continue }
                candidate = (start, end)
            } else if let c = candidate, first.elementsEqual("Anonymous:".utf8) {
                // Text relocations or a debugger's breakpoints would live in private copies:
                // discarding those would change the code, so such a mapping is left alone.
                candidate = nil
                guard fields.count >= 2, fields[1].elementsEqual("0".utf8),
                      let p = UnsafeMutableRawPointer(bitPattern: c.start) else { continue }
                if madvise(p, Int(c.end - c.start), MADV_DONTNEED) == 0 { released += Int(c.end - c.start) }
            }
        }
        return released
    }
}
