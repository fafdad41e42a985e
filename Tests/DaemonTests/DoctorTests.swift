import Daemon
import Foundation
import Glibc
import Testing

/// `gestured doctor` on what the host has: a config that does not load, a broker that accepts
/// and one that is gone (the real mosquitto the tests start, then killed), a generator's drop-in
/// written for an older config (a `systemctl daemon-reload` missing), the daemon found through
/// its socket, the kernel's access rule for another user. Devices, /dev/uinput and the clone
/// are the VM's (scenario 21).
@Suite struct DoctorTests {
    let dir: String

    init() throws {
        dir = NSTemporaryDirectory() + "gestured-doctor-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    func config(_ toml: String, name: String = "c.toml") throws -> (path: String, config: DaemonConfig) {
        let path = dir + "/" + name
        try toml.write(toFile: path, atomically: true, encoding: .utf8)
        return (path, try ConfigLoader().load(path: path))
    }

    @Test("a config that does not load is named with its file, line and key; exit status 1")
    func configFault() throws {
        let path = dir + "/bad.toml"
        try "[[bind]]\ngesture = \"circle\"\nrun = [\"/bin/true\"]\n\n[mqtt]\nurl = \"http://broker\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        let r = try SystemdTests.run([try DaemonHarness.binary(), "doctor", "--config", path, "--socket", dir + "/none.sock"])
        #expect(r.status == 1, "\(r.output)")
        #expect(r.output.contains("✖ config \(path) does not load:"), "\(r.output)")
        #expect(r.output.contains("\(path):6: mqtt.url: expected mqtt://host[:port]"), "\(r.output)")
        #expect(r.output.contains("fix: correct the lines named above (`gestured check-config \(path)`"), "\(r.output)")
        #expect(r.output.contains("✖ no socket at \(dir)/none.sock"), "\(r.output)")
        #expect(r.output.contains("fix: start the daemon: `systemctl start gestured`"), "\(r.output)")
    }

    @Test("a broker that accepts is ✔; the same broker killed is ✖ with the reason, within the time bound")
    func broker() throws {
        let broker = try Broker()
        let c = try config("[mqtt]\nurl = \"\(broker.url)\"\n")
        var doctor = Daemon.Doctor(configPath: c.path)
        doctor.brokerTimeout = 3
        let up = doctor.brokerFindings(config: c.config)
        #expect(up == [.ok("the broker mqtt://127.0.0.1:\(broker.port) accepts us")], "\(up)")
        broker.kill()
        let start = Date()
        let down = doctor.brokerFindings(config: c.config)
        let took = Date().timeIntervalSince(start)
        #expect(down.count == 1 && down[0].verdict == .wrong, "\(down)")
        #expect(down[0].text == "the broker mqtt://127.0.0.1:\(broker.port) does not accept us: Connection refused", "\(down)")
        #expect(down[0].fix?.contains("check url, username and password_file in [mqtt] of \(c.path)") == true)
        #expect(took < 3.5, "took \(took) s")
    }

    @Test("a broker address where nothing answers runs into the time bound, not the kernel's")
    func silentBroker() throws {
        // 192.0.2.0/24 is TEST-NET-1: never routed, so the connection neither succeeds nor is refused
        // (or fails at once where the host has no route: either way within the bound).
        let c = try config("[mqtt]\nurl = \"mqtt://192.0.2.1:1883\"\n")
        var doctor = Daemon.Doctor(configPath: c.path)
        doctor.brokerTimeout = 1
        let start = Date()
        let f = doctor.brokerFindings(config: c.config)
        #expect(Date().timeIntervalSince(start) < 2)
        #expect(f.count == 1 && f[0].verdict == .wrong && f[0].text.hasPrefix("the broker mqtt://192.0.2.1:1883 does not accept us: "), "\(f)")
    }

    @Test("a drop-in written for an older config: the daemon-reload is missing, named with the feature and the command")
    func missingDaemonReload() throws {
        let old = try config("[socket]\nmode = \"0600\"\n", name: "old.toml")
        let generated = dir + "/generator"
        try FileManager.default.createDirectory(atPath: generated + "/gestured.service.d", withIntermediateDirectories: true)
        // The generator's own output for the older config.
        let r = try SystemdTests.run([try DaemonHarness.binary(), "generate-units", "--config", old.path, generated, generated, generated])
        #expect(r.status == 0, "\(r.output)")
        let current = try config("[defaults]\npassthrough = true\n\n[[bind]]\ngesture = \"circle\"\nkeys = \"ctrl+r\"\n")
        var doctor = Daemon.Doctor(configPath: current.path)
        doctor.generatorDirectory = generated
        let f = doctor.generatorFindings(config: current.config, view: nil)
        #expect(f == [.wrong("the generator's drop-in grants nothing; the config needs /dev/uinput (passthrough in [defaults], keys in [[bind]] 1) too: a `systemctl daemon-reload` is missing",
                             fix: "run `systemctl daemon-reload && systemctl restart gestured`")], "\(f)")
        // After the reload: the generator's output for the current config.
        let again = try SystemdTests.run([try DaemonHarness.binary(), "generate-units", "--config", current.path, generated, generated, generated])
        #expect(again.status == 0, "\(again.output)")
        #expect(doctor.generatorFindings(config: current.config, view: nil) == [.ok("the generator's drop-in grants what the config needs (uinput)")])
        // A service still running with the old grants: the restart is missing.
        var running = ServiceView.thisProcess()
        running.pid = 1234
        running.grants = []
        let stale = doctor.generatorFindings(config: current.config, view: running)
        #expect(stale.first?.verdict == .wrong && stale.first?.fix == "run `systemctl restart gestured`", "\(stale)")
    }

    @Test("the daemon is found through its socket: its pid, its user; the socket's owner, group and mode are shown")
    func daemonThroughSocket() throws {
        let daemon = try DaemonHarness(config: "", replays: [DaemonHarness.circleRecording])
        let r = try SystemdTests.run([try DaemonHarness.binary(), "doctor", "--config", daemon.configPath, "--socket", daemon.socketPath])
        #expect(r.output.contains("✔ socket \(daemon.socketPath) (root:"), "\(r.output)")
        #expect(r.output.contains("the daemon answers (pid \(daemon.process.processIdentifier))"), "\(r.output)")
        #expect(r.output.contains("– checking access as gestured (pid \(daemon.process.processIdentifier), user root"), "\(r.output)")
        #expect(r.output.contains("– no [mqtt]: no broker to reach"), "\(r.output)")
    }

    @Test("the kernel's access rule for another user: owner, group, other bits; root passes")
    func nodeAccess() throws {
        let path = dir + "/node"
        _ = FileManager.default.createFile(atPath: path, contents: Data())
        chmod(path, 0o640)
        var st = stat()
        stat(path, &st)
        let stranger = NodeAccess.check(path, write: false, uid: 54321, groups: [54321])
        #expect(!stranger.allowed && stranger.exists)
        #expect(stranger.describe.hasSuffix(" 0640"), "\(stranger.describe)")
        let member = NodeAccess.check(path, write: false, uid: 54321, groups: [st.st_gid])
        #expect(member.allowed)
        #expect(!NodeAccess.check(path, write: true, uid: 54321, groups: [st.st_gid]).allowed)
        #expect(NodeAccess.check(path, write: true, uid: st.st_uid, groups: []).allowed)
        #expect(!NodeAccess.check(dir + "/missing", write: false, uid: 0, groups: []).exists)
    }
}
