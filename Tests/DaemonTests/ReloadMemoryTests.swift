import Foundation
import Glibc
import Testing

/// A kiosk's fleet may push a config every hour for months: reloading must leave nothing behind.
/// The real daemon, the shipped example config, SIGHUP after SIGHUP, its resident memory read from
/// /proc. TOMLKit, the parser before gestured's own, left 28 KiB a reload of this config (docs/reliability.md).
@Suite(.serialized) struct ReloadMemoryTests {
    /// Reloads before the first reading: the allocator's arenas and the pages of the reload's code
    /// settle in these.
    static let warmUpReloads = 20
    static let measuredReloads = 300
    /// The growth allowed over the measured reloads: 1.7 KiB a reload, a sixteenth of TOMLKit's
    /// leak with this config, and room for the allocator's noise above the 0 KiB measured since.
    static let toleranceKiB = 512

    @Test func threeHundredReloadsLeaveResidentMemoryFlat() throws {
        let example = try String(contentsOfFile: DaemonHarness.root.path + "/config/gestures.toml", encoding: .utf8)
        let d = try DaemonHarness(config: example, replays: [DaemonHarness.circleRecording])
        var reloads = 0
        for _ in 0..<Self.warmUpReloads { try reload(d, &reloads) }
        let before = try residentKiB(d.process.processIdentifier)
        let descriptorsBefore = try openDescriptors(d.process.processIdentifier)
        for _ in 0..<Self.measuredReloads { try reload(d, &reloads) }
        let after = try residentKiB(d.process.processIdentifier)
        #expect(after - before <= Self.toleranceKiB,
                "RSS \(before) → \(after) KiB over \(Self.measuredReloads) reloads (at most +\(Self.toleranceKiB) KiB)")
        #expect(try openDescriptors(d.process.processIdentifier) == descriptorsBefore)
        #expect(!d.log.contains("reload failed"), "\(d.log)")
    }

    /// One SIGHUP, then waits for its "configuration reloaded" line (signals sent faster than the
    /// daemon reads them would merge into one).
    private func reload(_ d: DaemonHarness, _ count: inout Int) throws {
        d.signal(SIGHUP)
        count += 1
        let deadline = Date().addingTimeInterval(10)
        while d.log.components(separatedBy: "configuration reloaded").count - 1 < count {
            guard Date() < deadline, d.process.isRunning else {
                throw HarnessError("reload \(count) did not finish; log:\n\(d.log.suffix(2000))")
            }
            usleep(2_000)
        }
    }

    private func residentKiB(_ pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kib = Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]) else {
            throw HarnessError("no VmRSS in /proc/\(pid)/status")
        }
        return kib
    }

    private func openDescriptors(_ pid: Int32) throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count
    }
}
