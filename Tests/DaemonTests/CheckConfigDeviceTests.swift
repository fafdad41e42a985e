import Foundation
import Testing

/// `gestured check-config --device`: what a config asks of a device it cannot give. Passthrough
/// on a single-touch panel (no slot to cancel a touch the clone passed on) is refused with the
/// reason; on a multitouch panel with slots it is fine; a config not passing it through is fine.
@Suite struct CheckConfigDeviceTests {
    static let singleTouch = DaemonHarness.root.path + "/Tests/Fixtures/synthetic/Single-Touch_Panel.events"
    static let multitouch = DaemonHarness.root.path + "/Tests/Fixtures/recordings/touchscreens/Atmel_maXTouch_Touchscreen.desc"

    func checkConfig(_ toml: String, devices: [String]) throws -> (status: Int32, output: String) {
        let dir = NSTemporaryDirectory() + "gestured-check-device-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try toml.write(toFile: dir + "/c.toml", atomically: true, encoding: .utf8)
        return try SystemdTests.run([try DaemonHarness.binary(), "check-config", dir + "/c.toml"] + devices.flatMap { ["--device", $0] },
                                    environment: [:])
    }

    @Test("passthrough on a single-touch panel is refused with the reason; on a multitouch panel it is OK")
    func passthroughOnSingleTouch() throws {
        let r = try checkConfig("[defaults]\npassthrough = true\n", devices: [Self.singleTouch, Self.multitouch])
        #expect(r.status == 1, "\(r.output)")
        #expect(r.output.contains("c.toml: device \"Synthetic Single-Touch Panel\" (\(Self.singleTouch)): passthrough needs a multitouch "
                                  + "device with slots (protocol B); this one is single-touch (ABS_X/ABS_Y, no ABS_MT_*), whose touches "
                                  + "the clone cannot cancel"), "\(r.output)")
        #expect(!r.output.contains("Atmel maXTouch Touchscreen\" (\(Self.multitouch)): passthrough"), "\(r.output)")
    }

    @Test("without passthrough for it, a single-touch panel passes; passthrough for another device name too")
    func noPassthroughForIt() throws {
        let plain = try checkConfig("[[bind]]\ngesture = \"circle\"\nrun = [\"/bin/true\"]\n", devices: [Self.singleTouch])
        #expect(plain.status == 0, "\(plain.output)")
        #expect(plain.output.contains("device \"Synthetic Single-Touch Panel\" (\(Self.singleTouch)): touchscreen, single touch: OK"), "\(plain.output)")
        let other = try checkConfig("[[device]]\nname = \"Atmel*\"\npassthrough = true\n", devices: [Self.singleTouch, Self.multitouch])
        #expect(other.status == 0, "\(other.output)")
    }

    @Test("a --device that cannot be read is an error naming it")
    func unreadableDevice() throws {
        let r = try checkConfig("[defaults]\npassthrough = true\n", devices: ["/nonexistent/panel.events"])
        #expect(r.status == 1)
        #expect(r.output.contains("--device /nonexistent/panel.events:"), "\(r.output)")
    }
}
