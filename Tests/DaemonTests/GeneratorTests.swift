import Daemon
import Foundation
import Testing

/// The systemd generator (`gestured generate-units`, run by systemd at boot and daemon-reload):
/// for a config with and without each feature, the drop-in it writes, what systemd makes of the
/// unit with it (`systemd-analyze verify`, and `security`'s exposure), and the check that the
/// service was granted what its config needs (`check-config` inside the unit).
@Suite(.serialized) struct GeneratorTests {
    static let uinput = ["SupplementaryGroups=gestured-uinput", "DeviceAllow=/dev/uinput rw"]
    static let network = ["RestrictAddressFamilies=AF_INET AF_INET6"]
    static let commands = ["SupplementaryGroups=gestured-run"]

    /// Each feature alone, none, and all: the config's text and the settings its drop-in must hold.
    static let cases: [(name: String, toml: String, grants: String, settings: [String])] = [
        ("none", "[socket]\nmode = \"0600\"\n", "", []),
        ("run", "[[bind]]\ngesture = \"circle\"\nrun = [\"/bin/true\"]\n", "commands", commands),
        ("passthrough", "[[device]]\nname = \"Wacom*\"\npassthrough = true\n", "uinput", uinput),
        ("keys", "[[bind]]\ngesture = \"circle\"\nkeys = \"ctrl+r\"\n", "uinput", uinput),
        ("click", "[[bind]]\ngesture = \"tap\"\nclick = \"left\"\n", "uinput", uinput),
        ("mqtt-address", "[mqtt]\nurl = \"mqtt://192.0.2.7:1883\"\n", "network", network + ["IPAddressAllow=192.0.2.7"]),
        ("mqtt-name", "[mqtt]\nurl = \"mqtts://broker.museum.lan\"\nca_file = \"/etc/hostname\"\n", "network", network + ["IPAddressAllow=any"]),
        // The password handed over by systemd, read as root: the file can be 0600 root:root.
        ("mqtt-password", "[mqtt]\nurl = \"mqtt://192.0.2.7\"\nusername = \"k\"\npassword_file = \"/etc/hostname\"\n", "network",
         network + ["IPAddressAllow=192.0.2.7", "LoadCredential=mqtt-password:/etc/hostname"]),
        ("all", "[defaults]\npassthrough = true\n[[bind]]\ngesture = \"circle\"\nkeys = \"ctrl+r\"\n[[bind]]\ngesture = \"tap\"\nrun = [\"/bin/true\"]\n"
            + "[mqtt]\nurl = \"mqtt://localhost\"\n",
         "uinput,network,commands", uinput + network + ["IPAddressAllow=localhost"] + commands),
    ]

    /// A directory holding the unit (pointing at the built binary) and, for `toml`, its config and
    /// the generated drop-in beside it, as systemd would find them.
    static func generate(_ toml: String?, in dir: String) throws -> String {
        let binary = try DaemonHarness.binary()
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let service = try String(contentsOfFile: DaemonHarness.root.path + "/systemd/gestured.service", encoding: .utf8)
            .replacingOccurrences(of: "/usr/local/bin/gestured", with: binary)
        try service.write(toFile: dir + "/gestured.service", atomically: true, encoding: .utf8)
        guard let toml else { return "" }
        try toml.write(toFile: dir + "/gestures.toml", atomically: true, encoding: .utf8)
        let r = try SystemdTests.run([binary, "generate-units", "--config", dir + "/gestures.toml", dir, dir, dir])
        #expect(r.status == 0, "\(r.output)")
        return try String(contentsOfFile: dir + "/gestured.service.d/50-features.conf", encoding: .utf8)
    }

    static func exposure(_ dir: String) throws -> Double {
        let r = try SystemdTests.run(["systemd-analyze", "security", "--offline=true", "--no-pager", dir + "/gestured.service"])
        let line = r.output.split(separator: "\n").first { $0.contains("Overall exposure level") } ?? ""
        // The figure after the unit's name: the line ends in an emoji, or in ":-)" without them
        // (no UTF-8 terminal, as in Debian 13's systemd in a chroot).
        let after = line.range(of: ".service: ").map { line[$0.upperBound...] } ?? ""
        let figure = after.split(separator: " ").first.flatMap { Double($0) }
        return try #require(figure, "no exposure in: \(r.output)")
    }

    @Test(arguments: 0..<cases.count) func dropInGrantsWhatTheConfigUses(_ i: Int) throws {
        let c = Self.cases[i]
        let dir = NSTemporaryDirectory() + "gestured-gen-\(c.name)-" + UUID().uuidString.prefix(8)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let dropIn = try Self.generate(c.toml, in: dir)
        let settings = dropIn.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") && !$0.hasPrefix("[") }
        #expect(settings == ["Environment=GESTURED_GRANTS=\(c.grants)"] + c.settings, "\(dropIn)")
        let verify = try SystemdTests.run(["systemd-analyze", "verify", dir + "/gestured.service"])
        #expect(verify.status == 0 && !verify.output.contains("gestured."), "\(verify.output)")
        // The README's figures: every feature on stays within 2.0; none within the 1.4 the unit had
        // before it gave up PrivateNetwork= for IPAddressDeny=any.
        let limit = c.name == "none" ? 1.4 : 2.0
        #expect(try Self.exposure(dir) <= limit)
    }

    /// Every name-like key holding a line break and a directive (HostileNameTests' cases), handed
    /// to the generator as systemd would run it: no line of the drop-in outside the vocabulary,
    /// no directive of the config's, and the file's error names the key.
    @Test(arguments: 0..<HostileNameTests.cases.count) func hostileNamesNeverReachTheUnit(_ i: Int) throws {
        let (what, text, _, key) = HostileNameTests.cases[i]
        let dir = NSTemporaryDirectory() + "gestured-gen-hostile-\(i)-" + UUID().uuidString.prefix(8)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let dropIn = try Self.generate(text, in: dir)
        for line in dropIn.split(separator: "\n") {
            #expect(UnitVocabulary.refusal(String(line)) == nil, "\(what): \(line)")
            #expect(!line.contains("ExecStartPre") && !line.contains("pwned"), "\(what): \(dropIn)")
        }
        #expect(dropIn.contains("Environment=GESTURED_GRANTS=\n"), "\(what): \(dropIn)")
        let check = try SystemdTests.run([try DaemonHarness.binary(), "check-config", "--quiet", dir + "/gestures.toml"])
        #expect(check.status == 1 && check.output.contains(": \(key): ") && check.output.contains("contains the control character U+000A"), "\(what): \(check.output)")
    }

    @Test func aConfigThatDoesNotLoadGrantsNothing() throws {
        let dir = NSTemporaryDirectory() + "gestured-gen-bad-" + UUID().uuidString.prefix(8)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let dropIn = try Self.generate("[[bind]]\ngesture = \"circle\"\nkeys = \"nosuchkey\"\n", in: dir)
        #expect(dropIn.contains("Environment=GESTURED_GRANTS=\n") && !dropIn.contains("DeviceAllow"), "\(dropIn)")
    }

    /// Inside the unit (GESTURED_GRANTS set), check-config fails on each need the unit lacks and
    /// names the command that fixes it; a grant present for every need passes.
    @Test func checkConfigInsideTheServiceNamesTheMissingGrant() throws {
        let binary = try DaemonHarness.binary()
        let dir = NSTemporaryDirectory() + "gestured-gen-check-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "[mqtt]\nurl = \"mqtt://127.0.0.1\"\n".write(toFile: dir + "/c.toml", atomically: true, encoding: .utf8)
        let lacking = try SystemdTests.run([binary, "check-config", "--quiet", dir + "/c.toml"], environment: ["GESTURED_GRANTS": ""])
        #expect(lacking.status == 1)
        #expect(lacking.output.contains("the config needs the network ([mqtt] mqtt://127.0.0.1:1883), which gestured.service is not granted: "
            + "run `systemctl daemon-reload && systemctl restart gestured`"), "\(lacking.output)")
        let granted = try SystemdTests.run([binary, "check-config", "--quiet", dir + "/c.toml"], environment: ["GESTURED_GRANTS": "network"])
        #expect(granted.status == 0 && granted.output.isEmpty, "\(granted.output)")
        // Outside the unit, with no generator output to compare with: nothing to judge.
        let byHand = try SystemdTests.run([binary, "check-config", "--quiet", dir + "/c.toml"], environment: [:])
        #expect(byHand.status == 0, "\(byHand.output)")
    }
}
