import Foundation
import Testing

/// `gestured udev-passthrough`, as udev's IMPORT{program} runs it (61-gestured-passthrough.rules):
/// whatever goes wrong it exits 0 with nothing to import, and says why on standard error, which
/// udev logs. What it prints for a real panel and its clone: VM scenarios 21 and 23, the boot test.
@Suite struct UdevPassthroughTests {
    @Test func aConfigThatDoesNotLoadLeavesTheDeviceToLibinputAndSaysWhy() throws {
        let dir = NSTemporaryDirectory() + "gestured-udev-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "[defaults]\npassthrough = maybe\n".write(toFile: dir + "/bad.toml", atomically: true, encoding: .utf8)
        let r = try SystemdTests.run([try DaemonHarness.binary(), "udev-passthrough", "--config", dir + "/bad.toml", "/dev/input/event0"])
        #expect(r.status == 0, "\(r.output)")
        #expect(r.output.contains("gestured udev-passthrough: /dev/input/event0 left to libinput:") && r.output.contains("bad.toml"), "\(r.output)")
        #expect(!r.output.contains("LIBINPUT_IGNORE_DEVICE"), "\(r.output)")
    }

    /// A node that is no input device: nothing, exit 0.
    @Test func aNodeThatIsNoInputDeviceGetsNothing() throws {
        let r = try SystemdTests.run([try DaemonHarness.binary(), "udev-passthrough", "--config",
                                      DaemonHarness.root.path + "/config/kiosk.toml", "/dev/null"])
        #expect(r.status == 0 && r.output.isEmpty, "\(r.output)")
    }
}
