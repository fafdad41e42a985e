import Foundation
import Glibc
import Testing

/// Who may do what through the daemon (docs/security.md), each through the real daemon as the
/// person it concerns would try it: a client of another user on the socket, a `kill -9`, a FIFO
/// where a file should be, silent connections holding the slots.
@Suite(.serialized) struct TrustTests {
    static let modes = "[[mode]]\nname = \"normal\"\n[[mode]]\nname = \"locked\"\npassthrough = \"none\"\n"

    /// Lines sent by a client running as `uid`/`gid` (setpriv, with no supplementary groups),
    /// and the reply to each (broadcast events skipped), as JSON objects.
    static func asUser(_ uid: Int, gid: Int, socket: String, _ lines: [String]) throws -> [[String: Any]] {
        #expect(getuid() == 0, "these tests start clients as other users: run them as root")
        let script = """
            import json, socket, sys
            s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); f = s.makefile("rw")
            out = []
            for line in sys.argv[2:]:
                f.write(line + "\\n"); f.flush()
                while True:
                    reply = json.loads(f.readline())
                    if "event" not in reply and "gesture" not in reply: break
                out.append(reply)
            print(json.dumps(out))
            """
        let r = try SystemdTests.run(["setpriv", "--reuid=\(uid)", "--regid=\(gid)", "--clear-groups",
                                      "/usr/bin/python3", "-c", script, socket] + lines)
        #expect(r.status == 0, "\(r.output)")
        return (try? JSONSerialization.jsonObject(with: Data(r.output.utf8))) as? [[String: Any]] ?? []
    }

    static let nobody = 65534
    /// Debian's `staff` group (50): a group the test's peer can be put in without creating one.
    static let staff = 50

    @Test func aClientOutsideTheControlGroupListensButCannotControl() throws {
        let d = try DaemonHarness(config: "[socket]\nmode = \"0666\"\ncontrol_group = \"staff\"\n" + Self.modes,
                                  replays: [DaemonHarness.circleRecording])
        let replies = try Self.asUser(Self.nobody, gid: Self.nobody, socket: d.socketPath, [
            #"{"subscribe":["circle"]}"#, #"{"status":true}"#, #"{"mode":"locked"}"#,
            #"{"disable":"tap"}"#, #"{"enable":"tap"}"#, #"{"replay":true}"#,
        ])
        try #require(replies.count == 6, "\(replies)\n\(d.log)")
        #expect(replies[0]["ok"] as? Bool == true, "\(replies[0])")
        #expect((replies[1]["status"] as? [String: Any])?["mode"] as? String == "normal", "\(replies[1])")
        for r in replies[2...] {
            #expect(r["ok"] as? Bool == false, "\(r)")
            #expect((r["error"] as? String)?.contains("uid 65534 may listen, not control: only root and group staff") == true, "\(r)")
        }
        // Nothing changed: still normal, tap still on.
        let root = try d.connect()
        let status = try #require(try root.command(#"{"status":true}"#)["status"] as? [String: Any])
        #expect(status["mode"] as? String == "normal")
        let recognizers = ((status["devices"] as? [[String: Any]])?.first?["recognizers"] as? [[String: Any]]) ?? []
        #expect(recognizers.contains { $0["name"] as? String == "tap" && $0["enabled"] as? Bool == true }, "\(recognizers)")
        #expect(d.log.contains("may listen, not control"), "\(d.log)")
    }

    /// Debian's `nogroup` (65534): `nobody`'s own group in the user database, so `nobody` is a
    /// member without the test creating a group.
    static let nogroup = 65534

    @Test func theControlGroupAndRootMayControl() throws {
        let d = try DaemonHarness(config: "[socket]\nmode = \"0666\"\ncontrol_group = \"nogroup\"\n" + Self.modes, replays: [])
        let member = try Self.asUser(Self.nobody, gid: Self.nogroup, socket: d.socketPath, [#"{"mode":"locked"}"#])
        #expect(member.first?["ok"] as? Bool == true && member.first?["mode"] as? String == "locked", "\(member)\n\(d.log)")
        let root = try d.connect()
        #expect(try root.command(#"{"mode":"normal"}"#)["ok"] as? Bool == true)
    }

    /// The group a connection was opened with does not count, only the user's groups: a
    /// non-member who connects with the control group as effective group (`sg`, a setgid
    /// helper) listens and does not control.
    @Test func theConnectionsOwnGroupDoesNotControl() throws {
        let d = try DaemonHarness(config: "[socket]\nmode = \"0666\"\ncontrol_group = \"staff\"\n" + Self.modes, replays: [])
        let outsider = try Self.asUser(Self.nobody, gid: Self.staff, socket: d.socketPath, [#"{"mode":"locked"}"#, #"{"status":true}"#])
        #expect((outsider.first?["error"] as? String)?.contains("uid 65534 may listen, not control") == true, "\(outsider)\n\(d.log)")
        #expect((outsider.last?["status"] as? [String: Any])?["mode"] as? String == "normal", "\(outsider)")
    }

    /// The packaged default: no control_group, control by root only — the socket's group listens.
    @Test func withoutAControlGroupOnlyRootControls() throws {
        let d = try DaemonHarness(config: "[socket]\nmode = \"0666\"\n" + Self.modes, replays: [])
        let other = try Self.asUser(Self.nobody, gid: Self.staff, socket: d.socketPath, [#"{"mode":"locked"}"#, #"{"status":true}"#])
        #expect((other.first?["error"] as? String)?.contains("only root may switch modes") == true, "\(other)")
        #expect((other.last?["status"] as? [String: Any])?["mode"] as? String == "normal", "\(other)")
    }

    /// Locked, then killed with SIGKILL (a crash, the OOM killer) and started again on the same
    /// runtime directory: locked. A `for` resumes with what is left of it.
    @Test func theModeSurvivesKillNine() throws {
        let run = NSTemporaryDirectory() + "gestured-run-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: run, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: run) }
        let config = Self.modes + "[[mode]]\nname = \"maintenance\"\n"
        do {
            let d = try DaemonHarness(config: config, replays: [], environment: ["RUNTIME_DIRECTORY": run])
            #expect(try d.connect().command(#"{"mode":"locked"}"#)["ok"] as? Bool == true)
            usleep(200_000)
            d.signal(SIGKILL)
            #expect(d.waitForExit(timeout: 5) != nil)
        }
        #expect((try? String(contentsOfFile: run + "/mode", encoding: .utf8)) == "locked\n")
        let again = try DaemonHarness(config: config, replays: [], environment: ["RUNTIME_DIRECTORY": run])
        let c = try again.connect()
        #expect((try c.command(#"{"status":true}"#)["status"] as? [String: Any])?["mode"] as? String == "locked", "\(again.log)")
        #expect(again.log.contains("mode locked restored from \(run)/mode"), "\(again.log)")
        // Without the runtime directory (a boot empties /run): the initial mode.
        let fresh = try DaemonHarness(config: config, replays: [])
        #expect((try fresh.connect().command(#"{"status":true}"#)["status"] as? [String: Any])?["mode"] as? String == "normal")
    }

    @Test func aForResumesWithWhatIsLeftOfIt() throws {
        let run = NSTemporaryDirectory() + "gestured-run-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: run, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: run) }
        // maintenance for 2 s, back to normal: saved with when it ends.
        let config = Self.modes + "[[mode]]\nname = \"maintenance\"\n[[bind]]\ngesture = \"circle\"\nswitch_mode = \"maintenance\"\nfor = 2\n"
        do {
            let d = try DaemonHarness(config: config, replays: [DaemonHarness.circleRecording], environment: ["RUNTIME_DIRECTORY": run])
            let c = try d.connect()
            try d.replayAndWait(c)
            let deadline = Date().addingTimeInterval(3)
            while (try? String(contentsOfFile: run + "/mode", encoding: .utf8))?.hasPrefix("maintenance") != true, Date() < deadline { usleep(20_000) }
            d.signal(SIGKILL)
            _ = d.waitForExit(timeout: 5)
        }
        let saved = try String(contentsOfFile: run + "/mode", encoding: .utf8)
        #expect(saved.hasPrefix("maintenance\nnormal\t"), "\(saved)")
        let again = try DaemonHarness(config: config, replays: [], environment: ["RUNTIME_DIRECTORY": run])
        let c = try again.connect()
        #expect((try c.command(#"{"status":true}"#)["status"] as? [String: Any])?["mode"] as? String == "maintenance", "\(again.log)")
        let event = c.collectEvents(for: 3).first { $0["event"] as? String == "mode" }
        #expect(event?["mode"] as? String == "normal" && event?["reason"] as? String == "timer", "\(String(describing: event))\n\(again.log)")
    }

    /// A FIFO as password_file (or a shape file) fails at once with what it is, rather than
    /// hanging check-config, the daemon, or the root-run generator at boot.
    @Test func aFIFOAsPasswordFileFailsFast() throws {
        let binary = try DaemonHarness.binary()
        let dir = NSTemporaryDirectory() + "gestured-fifo-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(mkfifo(dir + "/pw", 0o600) == 0)
        try "[mqtt]\nurl = \"mqtt://127.0.0.1\"\nusername = \"kiosk\"\npassword_file = \"\(dir)/pw\"\n"
            .write(toFile: dir + "/c.toml", atomically: true, encoding: .utf8)
        let start = Date()
        let check = try SystemdTests.run(["timeout", "10", binary, "check-config", "--quiet", dir + "/c.toml"])
        #expect(Date().timeIntervalSince(start) < 5)
        #expect(check.status == 1 && check.output.contains("\(dir)/c.toml:4: mqtt.password_file: cannot read \(dir)/pw: not a regular file (a FIFO)"),
                "\(check.status) \(check.output)")
        let gen = try SystemdTests.run(["timeout", "10", binary, "generate-units", "--config", dir + "/c.toml", dir, dir, dir])
        #expect(gen.status == 0 && gen.output.contains("not a regular file (a FIFO)"), "\(gen.status) \(gen.output)")
        // A shape file too.
        try FileManager.default.createDirectory(atPath: dir + "/shapes", withIntermediateDirectories: true)
        #expect(mkfifo(dir + "/shapes/star.shape", 0o600) == 0)
        try "[shapes]\ndir = \"\(dir)/shapes\"\n".write(toFile: dir + "/s.toml", atomically: true, encoding: .utf8)
        let shapes = try SystemdTests.run(["timeout", "10", binary, "check-config", "--quiet", dir + "/s.toml"])
        #expect(shapes.status == 1 && shapes.output.contains("star.shape") && shapes.output.contains("not a regular file (a FIFO)"), "\(shapes.output)")
    }

    /// Silent connections cannot lock the app out: when every slot is taken, one that has sent
    /// nothing for idle_timeout gives its slot to the newcomer; one that has spoken keeps it.
    @Test func silentClientsGiveTheirSlotsUp() throws {
        let d = try DaemonHarness(config: "[socket]\nmax_clients = 2\nidle_timeout = 0.3\n", replays: [])
        let speaker = try d.connect()
        #expect(try speaker.command(#"{"subscribe":["circle"]}"#)["ok"] as? Bool == true)
        let silent = try d.connect()
        usleep(500_000)
        let app = try d.connect()
        #expect(try app.command(#"{"status":true}"#)["status"] != nil, "\(d.log)")
        #expect((silent.readJSON(timeout: 2)?["error"] as? String)?.contains("sent nothing for 0.3 s") == true)
        #expect(silent.readLine(timeout: 1) == nil)
        // Now both slots are held by clients that spoke: the next is refused.
        let late = try d.connect()
        #expect((late.readJSON(timeout: 2)?["error"] as? String)?.contains("too many clients") == true)
        #expect(try speaker.command(#"{"status":true}"#)["status"] != nil)
    }
}
