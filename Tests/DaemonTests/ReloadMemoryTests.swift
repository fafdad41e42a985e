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
        let c = try d.connect()
        for _ in 0..<Self.warmUpReloads { try reload(d, c) }
        let before = try residentKiB(d.process.processIdentifier)
        let descriptorsBefore = try openDescriptors(d.process.processIdentifier)
        for _ in 0..<Self.measuredReloads { try reload(d, c) }
        let after = try residentKiB(d.process.processIdentifier)
        #expect(after - before <= Self.toleranceKiB,
                "RSS \(before) → \(after) KiB over \(Self.measuredReloads) reloads (at most +\(Self.toleranceKiB) KiB)")
        #expect(try openDescriptors(d.process.processIdentifier) == descriptorsBefore)
        #expect(!d.log.contains("reload failed"), "\(d.log)")
        #expect(d.log.contains("configuration reloaded"), "\(d.log)")
    }

    /// One SIGHUP, then two round trips on the socket: the loop reads the signal's fd and the
    /// client's in one thread, and the signal is pending before the first request is sent, so
    /// the second reply comes after the reload. (Not the log's "configuration reloaded": the
    /// log's rate limit holds most of 320 such lines back.)
    private func reload(_ d: DaemonHarness, _ c: Client) throws {
        d.signal(SIGHUP)
        for _ in 0..<2 {
            guard try c.command(#"{"status":true}"#)["status"] != nil else {
                throw HarnessError("no status after a SIGHUP; log:\n\(d.log.suffix(2000))")
            }
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
