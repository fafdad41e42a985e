import Foundation
import Glibc
import Testing

/// A device's name is whatever its maker wrote — a USB descriptor, a uinput user — and reaches
/// the journal, `status`, the socket's events and the broker. A hostile one (an escape sequence
/// that clears the admin's screen, a C1 CSI, a bell) arrives escaped everywhere.
@Suite struct DeviceNameTests {
    static let hostile = "Evil\u{1b}[2J\u{9b}0m\u{7}Panel"
    static let shown = #"Evil\u{1B}[2J\u{9B}0m\u{07}Panel"#

    /// The circle recording with its description's name replaced by `hostile`.
    static func hostileRecording() throws -> String {
        let dir = NSTemporaryDirectory() + "gestured-names-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let tablets = DaemonHarness.fixtures + "/tablets/"
        let desc = try String(contentsOfFile: tablets + "Wacom_ISDv4_E6_Finger.desc", encoding: .utf8)
            .replacingOccurrences(of: "N: Wacom ISDv4 E6 Finger", with: "N: " + hostile)
        try desc.write(toFile: dir + "/Evil.desc", atomically: true, encoding: .utf8)
        let events = dir + "/Evil.circle.events"
        try FileManager.default.copyItem(atPath: DaemonHarness.circleRecording, toPath: events)
        return events
    }

    @Test func aHostileNameIsEscapedInTheLogStatusAndEvents() throws {
        let d = try DaemonHarness(config: "[socket]\nmode = \"0600\"\n", replays: [try Self.hostileRecording()])
        let c = try d.connect()
        try d.replayAndWait(c)
        let status = try c.command(#"{"status":true}"#)
        let devices = ((status["status"] as? [String: Any])?["devices"] as? [[String: Any]]) ?? []
        #expect(devices.map { $0["name"] as? String } == [Self.shown], "\(devices)")
        let events = c.collectEvents(for: 0.5)
        #expect(!events.isEmpty && events.allSatisfy { $0["device"] as? String == Self.shown }, "\(events.prefix(2))")
        // Not one control character but the line ends: no escape reaches a terminal, no line a journal entry.
        let log = d.log
        #expect(log.contains(Self.shown), "\(log)")
        #expect(!log.unicodeScalars.contains { $0 != "\n" && ($0.properties.generalCategory == .control) }, "\(log.debugDescription)")
    }
}
