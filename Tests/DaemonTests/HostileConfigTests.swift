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
        let error = try #require(throws: ConfigErrors.self) { try ConfigLoader().parse(c.text, file: "h.toml") }
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
        let error = try #require(throws: ConfigErrors.self) { try ConfigLoader().load(path: path) }
        #expect(error.errors.map(\.description) == ["\(path):3: not UTF-8 text"])
    }

    @Test func aFileLargerThanTheLimitIsNotRead() throws {
        let error = try #require(throws: ConfigErrors.self) { try ConfigLoader().load(path: "/dev/zero") }
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
