@testable import Daemon
import GestureKit
import Glibc
import Testing

/// Configs written to break the daemon later: values that would pass a looser check and then
/// misbehave, files that would take seconds to parse, and text that would shift line numbers.
/// Each is rejected at load time with file, line and key.
@Suite struct HostileConfigTests {
    typealias Case = ConfigErrorTests.Case

    static let bind = "[[bind]]\ngesture = \"pan\"\n"

    static let cases: [Case] = [
        Case(name: "NaN in a region rect", text: "[[region]]\nname = \"r\"\nrect = [nan, 0, 1, 1]\n",
             line: 3, key: "region[1].rect", message: "not a finite number"),
        Case(name: "infinity in calibration", text: "[defaults]\ncalibration = [1, 0, 0, 0, inf, 0]\n",
             line: 2, key: "defaults.calibration", message: "not a finite number"),
        Case(name: "subnormal size", text: "[defaults]\nsize_mm = [5e-324, 5e-324]\n",
             line: 2, key: "defaults.size_mm", message: "within 1…10000"),
        Case(name: "NUL in run", text: bind + "run = [\"/bin/echo\\u0000x\"]\n",
             line: 3, key: "", message: "NUL"),
        Case(name: "NUL in shell", text: bind + "shell = \"echo\\u0000x\"\n",
             line: 3, key: "", message: "NUL"),
        Case(name: "NUL in group", text: "[socket]\ngroup = \"input\\u0000x\"\n",
             line: 2, key: "", message: "NUL"),
        Case(name: "NUL as an 8-digit escape, in a multi-line string", text: bind + "shell = \"\"\"\necho \\U00000000x\"\"\"\n",
             line: 4, key: "", message: "NUL"),
        Case(name: "unknown group", text: "[socket]\ngroup = \"no-such-group-gestured\"\n",
             line: 2, key: "socket.group", message: "no group"),
        Case(name: "socket path longer than sun_path", text: "[socket]\npath = \"/" + String(repeating: "p", count: 199) + "\"\n",
             line: 2, key: "socket.path", message: "at most 95"),
        Case(name: "step that would overflow the step count", text: bind + "run = [\"true\"]\nstep = 1e-300\nstep_of = \"translation_mm\"\n",
             line: 4, key: "bind[1].step", message: "out of range"),
        Case(name: "CRLF line numbers", text: "[socket]\r\npath = \"/tmp/x.sock\"\r\n\r\nmax_clients = 0\r\n",
             line: 4, key: "socket.max_clients", message: "out of range"),
        Case(name: "a key with 30,000 dotted parts", text: "[socket]\n" + Array(repeating: "a", count: 30000).joined(separator: ".") + " = 1\n",
             line: 2, key: "", message: "more than 8 dotted parts"),
        Case(name: "a table header with many parts", text: "\n[" + Array(repeating: "a", count: 50).joined(separator: ".") + "]\n",
             line: 2, key: "", message: "more than 8 dotted parts"),
        Case(name: "deep nesting", text: "[defaults]\nx = " + String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000) + "\n",
             line: 2, key: "", message: "nested deeper than 8"),
        // toml++ asserts (aborting a debug build) on a header without a name.
        Case(name: "a table header without a name", text: "[socket]\n[{bind]]\n", line: 2, key: "", message: "must start with a name"),
        Case(name: "an array-of-tables header without a name", text: "[[ \n", line: 1, key: "", message: "must start with a name"),
        // toml++ asserts, in release builds too (check-config, and the daemon on SIGHUP, would
        // abort), on a `}` where an array expects a value.
        Case(name: "a brace after an array's comma", text: "[[bind]]\nrun = [\"logger\", \"-t\",} \"x\"]\n",
             line: 2, key: "", message: "`}` where an array expects a value"),
        Case(name: "a brace opening an array", text: "[defaults]\nx = [}]\n", line: 2, key: "", message: "`}` where an array expects a value"),
        Case(name: "a brace after a comment in an array", text: "[defaults]\nx = [1, # one\n  }]\n", line: 3, key: "", message: "`}` where an array expects a value"),
        Case(name: "a brace in an array in an inline table", text: "[defaults]\nx = {a = [[1],}\n", line: 2, key: "", message: "`}` where an array expects a value"),
        Case(name: "a long line", text: "# " + String(repeating: "x", count: 20000) + "\n",
             line: 1, key: "", message: "line longer than 16384"),
    ]

    @Test(arguments: cases)
    func rejects(_ c: Case) throws {
        let error = try requireThrown(ConfigErrors.self) { try ConfigLoader().parse(c.text, file: "h.toml") }
        let found = try #require(error.errors.first { $0.key == c.key }, "no error for key \(c.key); got:\n\(error)")
        #expect(found.line == c.line, "\(found)")
        #expect(found.message.contains(c.message), "\(found)")
    }

    @Test func limitsDoNotFlagDotsAndBracketsInsideStrings() throws {
        let text = """
            [[region]]
            name = "a.b.c.d.e.f.g.h.i.j.k"
            rect = [0, 0, 0.5, 0.5]
            [[bind]]
            gesture = "tap"
            shell = "echo '[[[[[[[[[[[[' a.b.c.d.e.f.g.h.i.j.k # not a comment"
            [defaults.circle]
            tolerance = 0.5 # a.b.c.d.e.f.g.h.i.j [[[[[[[[[[[[[[
            [ "defaults" . 'swipe' ]
            [[ bind ]]
            gesture = "tap"
            run = ["true"]
            """
        let config = try ConfigLoader().parse(text, file: "ok.toml")
        #expect(config.bindings.count == 2)
    }

    @Test func invalidUTF8NamesItsLine() throws {
        let path = "/tmp/gestured-hostile-\(getpid()).toml"
        let bytes = Array("[socket]\nmax_clients = 4\n# caf".utf8) + [0xc3, 0x28] + Array("\n".utf8)
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        defer { unlink(path) }
        let error = try requireThrown(ConfigErrors.self) { try ConfigLoader().load(path: path) }
        #expect(error.errors.map(\.description) == ["\(path):3: not UTF-8 text"])
    }

    @Test func aFileLargerThanTheLimitIsNotRead() throws {
        let error = try requireThrown(ConfigErrors.self) { try ConfigLoader().load(path: "/dev/zero") }
        #expect(error.errors.first?.message.contains("larger than 1024 KiB") == true, "\(error)")
    }

    @Test func stepCountsNeverTrap() {
        var tracker = StepTracker()
        func event(_ phase: GesturePhase, _ x: Double) -> GestureEvent {
            var e = GestureEvent(kind: .pan, phase: phase, time: 0, fingers: 1, center: Point(x: 0, y: 0), centerMM: Point(x: 0, y: 0))
            e.translationMM = Point(x: x, y: 0)
            return e
        }
        _ = tracker.steps(event(.began, 0), device: "d", step: 1e-300, of: .translationMM)
        #expect(tracker.steps(event(.changed, 5), device: "d", step: 1e-300, of: .translationMM) == 1_000_000)
        #expect(tracker.steps(event(.changed, .nan), device: "d", step: 1, of: .translationMM) == nil)
    }

    @Test func timerDeadlinesNeverTrap() throws {
        let timer = try DeadlineTimer()
        timer.arm(1.8e19)
        timer.arm(.infinity)
        timer.arm(.nan)
        timer.arm(nil)
    }
}

/// Every name-like key, given a value (or a key) that carries a line break and a systemd
/// directive: refused where it is read, with file, line and key; and the root-run generator,
/// handed the file, writes no line outside its vocabulary. The generator's own check is tested
/// apart, with the hostile text put past the reader.
@Suite struct HostileNameTests {
    static let evil = "x\\nExecStartPre=+/bin/touch /tmp/gestured-pwned"
    /// A config that loads and needs both grants; `{}` is where each case puts its hostile text.
    static let base = """
        [[region]]
        name = "tl"
        rect = [0, 0, 0.1, 0.1]
        [[mode]]
        name = "normal"
        [[mode]]
        name = "locked"
        [[bind]]
        gesture = "tap"
        keys = "ctrl+r"
        [[sequence]]
        name = "unlock"
        steps = [{ gesture = "tap", region = "tl" }, { gesture = "tap", region = "tl" }]
        switch_mode = "normal"
        [mqtt]
        url = "mqtt://127.0.0.1"

        """

    /// (what, text appended to `base` — or replacing a part of it —, line, key).
    static let cases: [(String, String, Int, String)] = [
        ("sequence name", base.replacingOccurrences(of: "name = \"unlock\"", with: "name = \"\(evil)\""), 12, "sequence[1].name"),
        ("mode name", base + "[[mode]]\nname = \"\(evil)\"\n", 18, "mode[3].name"),
        ("region name", base + "[[region]]\nname = \"\(evil)\"\nrect = [0.5, 0.5, 0.6, 0.6]\n", 18, "region[2].name"),
        ("device name", base + "[[device]]\nname = \"\(evil)\"\n", 18, "device[1].name"),
        ("device property", base + "[[device]]\nproperty = { ID_SERIAL = \"\(evil)\" }\n", 18, "device[1].property.ID_SERIAL"),
        ("a binding's device", base + "[[bind]]\ngesture = \"tap\"\ndevice = \"\(evil)\"\nkeys = \"a\"\n", 19, "bind[2].device"),
        ("a binding's region", base + "[[bind]]\ngesture = \"tap\"\nregion = \"\(evil)\"\nkeys = \"a\"\n", 19, "bind[2].region"),
        ("a binding's shape", base + "[[bind]]\ngesture = \"shape\"\nshape = \"\(evil)\"\nkeys = \"a\"\n", 19, "bind[2].shape"),
        ("a binding's keys", base + "[[bind]]\ngesture = \"tap\"\nkeys = \"\(evil)\"\n", 19, "bind[2].keys"),
        ("switch_mode", base + "[[bind]]\ngesture = \"tap\"\nswitch_mode = \"\(evil)\"\n", 19, "bind[2].switch_mode"),
        ("in_mode", base + "[[bind]]\ngesture = \"tap\"\nkeys = \"a\"\nin_mode = [\"\(evil)\"]\n", 20, "bind[2].in_mode"),
        ("idle_mode", base + "[[mode]]\nname = \"idle\"\nidle_timeout = 5\nidle_mode = \"\(evil)\"\n", 20, "mode[3].idle_mode"),
        ("initial mode", base + "[modes]\ninitial = \"\(evil)\"\n", 18, "modes.initial"),
        ("a shape's table", base + "[shapes]\ndir = \"/tmp\"\n[shapes.\"\(evil)\"]\nthreshold = 0.5\n", 17, "shapes.x<U+000A>ExecStartPre=+/bin/touch /tmp/gestured-pwned"),
        ("a key of a relation", base + "[defaults.yields_to]\n\"\(evil)\" = \"tap\"\n", 17, "defaults.yields_to.x<U+000A>ExecStartPre=+/bin/touch /tmp/gestured-pwned"),
        ("socket group", base + "[socket]\ngroup = \"\(evil)\"\n", 18, "socket.group"),
        ("socket control group", base + "[socket]\ncontrol_group = \"\(evil)\"\n", 18, "socket.control_group"),
        ("socket path", base + "[socket]\npath = \"/tmp/\(evil)\"\n", 18, "socket.path"),
        ("mqtt url", base.replacingOccurrences(of: "mqtt://127.0.0.1", with: "mqtt://\(evil)"), 16, "mqtt.url"),
        ("mqtt topic", base + "topic = \"\(evil)\"\n", 17, "mqtt.topic"),
        ("mqtt client id", base + "client_id = \"\(evil)\"\n", 17, "mqtt.client_id"),
        ("mqtt user", base + "username = \"\(evil)\"\n", 17, "mqtt.username"),
        ("screen state", base + "[screen]\nstate = \"/sys/\(evil)\"\n", 18, "screen.state"),
    ]

    @Test(arguments: 0..<cases.count) func refusedWithFileLineAndKey(_ i: Int) throws {
        let (what, text, line, key) = Self.cases[i]
        let error = try requireThrown(ConfigErrors.self, "\(what)") { try ConfigLoader().parse(text, file: "h.toml") }
        let found = try #require(error.errors.first { $0.key == key }, "\(what): no error for \(key); got:\n\(error)")
        #expect(found.line == line, "\(what): \(found)")
        #expect(found.message.contains("control character U+000A"), "\(what): \(found)")
        #expect(!found.description.contains("\n"), "\(what): \(found)")
    }

    @Test func theBaseConfigLoads() throws {
        let config = try ConfigLoader().parse(Self.base, file: "h.toml")
        #expect(ServiceNeeds(config: config).grants == [.uinput, .network])
    }

    /// Past the reader (a config built in code): the hostile sequence name and broker host never
    /// reach the drop-in; every line written is in the vocabulary.
    @Test func theGeneratorChecksWhatItWrites() throws {
        var config = try ConfigLoader().parse(Self.base, file: "h.toml")
        let evil = "x\nExecStartPre=+/bin/touch /tmp/gestured-pwned"
        config.modes.sequences[0].name = evil
        config.mqtt?.host = evil
        let dropIn = ServiceSandbox.dropIn(config, path: "/etc/gestured/gestures.toml")
        let lines = dropIn.text.split(separator: "\n").map(String.init)
        for line in lines { #expect(UnitVocabulary.refusal(line) == nil, "\(line)") }
        #expect(!dropIn.text.contains("ExecStartPre"), "\(dropIn.text)")
        // The host's comment is refused; the grant stands, to any address (the host did not parse).
        #expect(dropIn.refused == ["a comment with a character outside printable ASCII"], "\(dropIn.refused)")
        #expect(lines.filter { !$0.hasPrefix("#") } == [
            "[Service]", "Environment=GESTURED_GRANTS=uinput,network",
            "SupplementaryGroups=gestured-uinput", "DeviceAllow=/dev/uinput rw",
            "RestrictAddressFamilies=AF_INET AF_INET6", "IPAddressAllow=any",
        ], "\(dropIn.text)")
    }

    @Test func theVocabulary() {
        for ok in ["[Service]", "# a comment", "SupplementaryGroups=gestured-uinput", "DeviceAllow=/dev/uinput rw",
                   "RestrictAddressFamilies=AF_INET AF_INET6", "IPAddressAllow=::1", "IPAddressAllow=192.0.2.7",
                   "Environment=GESTURED_GRANTS=uinput,network", "Environment=GESTURED_GRANTS="] {
            #expect(UnitVocabulary.refusal(ok) == nil, "\(ok)")
        }
        for bad in ["ExecStartPre=+/bin/touch /tmp/x", "SupplementaryGroups=root wheel", "DeviceAllow=/dev/../etc/shadow rw",
                    "DeviceAllow=/dev/sda rwm", "RestrictAddressFamilies=AF_PACKET", "IPAddressAllow=example.org",
                    "Environment=LD_PRELOAD=/tmp/x.so", "Environment=GESTURED_GRANTS=root", "# ends in a backslash \\",
                    "# caf\u{e9}", "[Unit]", "User=root"] {
            #expect(UnitVocabulary.refusal(bad) != nil, "\(bad)")
        }
    }
}
