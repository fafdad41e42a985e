import Glibc

/// Resident memory of this process, from /proc/self/status (kB values).
enum ProcessMemory {
    /// (current resident set, peak resident set) in kB, or nil if /proc is unreadable.
    static func resident() -> (rss: Int, peak: Int)? {
        guard let f = fopen("/proc/self/status", "r") else { return nil }
        defer { fclose(f) }
        var rss = -1, peak = -1
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), f) != nil {
            let s = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if s.hasPrefix("VmRSS:") { rss = kilobytes(s) }
            if s.hasPrefix("VmHWM:") { peak = kilobytes(s) }
        }
        return rss >= 0 && peak >= 0 ? (rss, peak) : nil
    }

    private static func kilobytes(_ line: String) -> Int {
        Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? -1
    }
}
