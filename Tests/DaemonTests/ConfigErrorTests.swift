import Daemon
import Testing

/// Each bad config is rejected with the line and key the operator must fix. Lines are counted
/// by hand in the texts below (line 1 is the first line of the literal).
@Suite struct ConfigErrorTests {
    struct Case: CustomStringConvertible, Sendable {
        var name: String
        var text: String
        var line: Int
        var key: String
        var message: String
        var description: String { name }
    }

    static let cases: [Case] = [
        Case(name: "unknown top-level table", text: """
            [socket]
            path = "/tmp/x.sock"
            [sockets]
            mode = "0600"
            """, line: 3, key: "sockets", message: "unknown key"),
        Case(name: "unknown key in [socket]", text: """
            [socket]
            path = "/tmp/x.sock"
            permissions = "0600"
            """, line: 3, key: "socket.permissions", message: "unknown key"),
        Case(name: "wrong type", text: """
            [socket]
            max_clients = "ten"
            """, line: 2, key: "socket.max_clients", message: "expected an integer, found string"),
        Case(name: "delay_regions names an unknown region", text: """
            [[region]]
            name = "corner"
            rect = [0, 0, 0.1, 0.1]
            [defaults]
            passthrough = true
            delay_regions = ["edges", "cornr"]
            """, line: 6, key: "defaults.delay_regions", message: "unknown region \"cornr\" (defined: edges, corner)"),
        Case(name: "delay_fingers out of range", text: """
            [[device]]
            name = "*"
            delay_fingers = 1
            """, line: 3, key: "device[1].delay_fingers", message: "out of range 2…10"),
        Case(name: "taken_touch_end not lift or cancel", text: """
            [[device]]
            name = "*"
            passthrough = true
            taken_touch_end = "palm"
            """, line: 4, key: "device[1].taken_touch_end",
             message: "expected \"lift\" (safe under every compositor) or \"cancel\" (TOUCH_CANCEL: only where the compositor forwards it), found \"palm\""),
        Case(name: "read_interval_ms beyond what evdev's buffer holds", text: """
            [defaults]
            read_interval_ms = 80
            """, line: 2, key: "defaults.read_interval_ms", message: "80 is out of range 0…50 ms"),
        Case(name: "integer out of range", text: """
            [socket]

            max_clients = 0
            """, line: 3, key: "socket.max_clients", message: "out of range"),
        Case(name: "bad octal mode", text: """
            [socket]
            mode = "0968"
            """, line: 2, key: "socket.mode", message: "octal"),
        Case(name: "relative socket path", text: """
            [socket]
            path = "gestured.sock"
            """, line: 2, key: "socket.path", message: "absolute"),
        Case(name: "region outside the screen", text: """
            [[region]]
            name = "logo"
            rect = [0.8, 0.0, 1.0, 0.2]

            [[region]]
            name = "big"
            rect = [0.5, 0.5, 1.5, 1.0]
            """, line: 7, key: "region[2].rect", message: "within 0…1"),
        Case(name: "inverted region", text: """
            [[region]]
            name = "logo"
            rect = [0.9, 0.0, 0.8, 0.2]
            """, line: 3, key: "region[1].rect", message: "x0 < x1"),
        Case(name: "rotation not a quarter turn", text: """
            [defaults]
            rotation = 45
            """, line: 2, key: "defaults.rotation", message: "0, 90, 180 or 270"),
        Case(name: "calibration with five numbers", text: """
            [[device]]
            name = "Wacom*"
            calibration = [1, 0, 0, 0, 1]
            """, line: 3, key: "device[1].calibration", message: "expected 6 numbers, found 5"),
        Case(name: "bad vendor_product", text: """
            [[device]]
            kind = "touchscreen"
            [[device]]
            vendor_product = "056a-00e6"
            """, line: 4, key: "device[2].vendor_product", message: "vvvv:pppp"),
        Case(name: "unknown device kind", text: """
            [[device]]
            kind = "tablet"
            """, line: 2, key: "device[1].kind", message: "touchscreen"),
        Case(name: "device section that matches nothing", text: """
            [socket]
            path = "/tmp/x.sock"

            [[device]]
            rotation = 90
            """, line: 4, key: "device[1]", message: "needs at least one of"),
        Case(name: "matching key in defaults", text: """
            [defaults]
            grab = false
            name = "Wacom*"
            """, line: 3, key: "defaults.name", message: "belong in a [[device]]"),
        Case(name: "unknown recognizer in recognizers", text: """
            [defaults]
            recognizers = ["pan", "lasso"]
            """, line: 2, key: "defaults.recognizers", message: "unknown recognizer \"lasso\""),
        Case(name: "unknown recognizer parameter", text: """
            [[device]]
            name = "*"
            [device.pan]
            slop_mm = 3
            slop = 3
            """, line: 5, key: "device[1].pan.slop", message: "a parameter of pan"),
        Case(name: "recognizer parameter renamed in 0.1", text: """
            [defaults.circle]
            tolerance = 0.2
            min_radius = 8
            """, line: 3, key: "defaults.circle.min_radius", message: "`min_radius` is now `min_radius_mm`"),
        Case(name: "recognizer parameter out of range", text: """
            [defaults.pan]
            slop_mm = 500
            """, line: 2, key: "defaults.pan.slop_mm", message: "out of range 0…50 mm"),
        Case(name: "recognizer parameter of the wrong type", text: """
            [defaults]
            pan = { slop_mm = "wide" }
            """, line: 2, key: "defaults.pan.slop_mm", message: "expected a number, found string"),
        Case(name: "exclude names an undefined region", text: """
            [[region]]
            name = "logo"
            rect = [0.8, 0.0, 1.0, 0.2]
            [defaults]
            exclude = ["logo", "keyboard"]
            """, line: 5, key: "defaults.exclude", message: "unknown region \"keyboard\""),
        Case(name: "unknown gesture in a binding", text: """
            [[bind]]
            gesture = "lasso"
            run = ["true"]
            """, line: 2, key: "bind[1].gesture", message: "unknown gesture"),
        Case(name: "binding with both run and shell", text: """
            [[bind]]
            gesture = "tap"
            run = ["true"]
            shell = "true"
            """, line: 4, key: "bind[1].shell", message: "not both"),
        Case(name: "binding with no command", text: """
            [[bind]]
            gesture = "swipe"
            direction = "up"
            [[bind]]
            gesture = "tap"
            """, line: 4, key: "bind[2]", message: "needs an action: run"),
        Case(name: "unknown key name in keys", text: """
            [[bind]]
            gesture = "circle"
            keys = ["ctrl+l", "ctrl+rr"]
            """, line: 3, key: "bind[1].keys", message: "unknown key \"rr\""),
        Case(name: "empty chord in keys", text: """
            [[bind]]
            gesture = "circle"
            keys = "ctrl+"
            """, line: 3, key: "bind[1].keys", message: "empty key name"),
        Case(name: "empty keys list", text: """
            [[bind]]
            gesture = "circle"
            keys = []
            """, line: 3, key: "bind[1].keys", message: "at least one chord"),
        Case(name: "a button in keys", text: """
            [[bind]]
            gesture = "tap"
            keys = "btn_right"
            """, line: 3, key: "bind[1].keys", message: "use click"),
        Case(name: "binding with both run and keys", text: """
            [[bind]]
            gesture = "circle"
            run = ["true"]
            keys = "ctrl+r"
            """, line: 4, key: "bind[1].keys", message: "one action per [[bind]], found run and keys"),
        Case(name: "binding with both keys and click", text: """
            [[bind]]
            gesture = "long_press"
            click = "right"
            keys = "ctrl+r"
            """, line: 3, key: "bind[1].click", message: "found keys and click"),
        Case(name: "unknown button", text: """
            [[bind]]
            gesture = "long_press"
            click = "double"
            """, line: 3, key: "bind[1].click", message: "unknown button \"double\" (known: left, right, middle)"),
        Case(name: "timeout on a click", text: """
            [[bind]]
            gesture = "long_press"
            click = "right"
            timeout = 5
            """, line: 4, key: "bind[1].timeout", message: "commands (run, shell) only"),
        Case(name: "phase that the gesture does not have", text: """
            [[bind]]
            gesture = "circle"
            phase = "began"
            run = ["true"]
            """, line: 3, key: "bind[1].phase", message: "discrete"),
        Case(name: "step of a quantity the gesture does not report", text: """
            [[bind]]
            gesture = "pan"
            step = 15
            step_of = "rotation_deg"
            run = ["true"]
            """, line: 4, key: "bind[1].step_of", message: "does not report rotation_deg"),
        Case(name: "step without step_of", text: """
            [[bind]]
            gesture = "rotate"
            step = 15
            run = ["true"]
            """, line: 3, key: "bind[1].step", message: "go together"),
        Case(name: "negative timeout", text: """
            [[bind]]
            gesture = "tap"
            run = ["true"]
            timeout = -1
            """, line: 4, key: "bind[1].timeout", message: "out of range"),
        Case(name: "a clone kept longer than a week", text: """
            [[device]]
            name = "*ilitek*"
            passthrough = true
            keep_clone_s = 700000
            """, line: 4, key: "device[1].keep_clone_s", message: "out of range"),
        Case(name: "a clone kept for negative time", text: """
            [defaults]
            keep_clone_s = -5
            """, line: 2, key: "defaults.keep_clone_s", message: "out of range"),
        Case(name: "binding to an undefined region", text: """
            [[bind]]
            gesture = "circle"
            region = "logo"
            run = ["true"]
            """, line: 3, key: "bind[1].region", message: "unknown region"),
        Case(name: "unknown direction word", text: """
            [[bind]]
            gesture = "swipe"
            direction = "north"
            run = ["true"]
            """, line: 3, key: "bind[1].direction", message: "unknown direction"),
        // One scanner (TOMLScanner) reads strings for the limits and for the lines: what looks like
        // a key, a header or a comment inside a string moves neither.
        Case(name: "keys and headers inside strings are not keys", text: """
            [socket]
            path = "/tmp/a'b = c#d"
            [[bind]]
            gesture = "tap"
            shell = '''
            rotation = 1
            [defaults]
            '''
            [defaults]
            "rotation" = 45
            """, line: 10, key: "defaults.rotation", message: "0, 90, 180 or 270"),
        Case(name: "run is not an argv", text: """
            [[bind]]
            gesture = "tap"
            # a comment, and then a multi-line array before the bad key
            fingers = 2
            run = "notify-send hello"
            """, line: 5, key: "bind[1].run", message: "expected an array of strings"),
    ]

    @Test(arguments: cases)
    func rejects(_ c: Case) throws {
        let error = try requireThrown(ConfigErrors.self) { try ConfigLoader().parse(c.text, file: "test.toml") }
        let match = error.errors.first { $0.key == c.key }
        let found = try #require(match, "no error for key \(c.key); got:\n\(error)")
        #expect(found.line == c.line, "\(found)")
        #expect(found.message.contains(c.message), "\(found)")
        #expect(found.description.hasPrefix("test.toml:\(c.line): \(c.key): "))
    }

    @Test func syntaxErrorsCarryTheParserLine() throws {
        let error = try requireThrown(ConfigErrors.self) {
            try ConfigLoader().parse("[socket]\npath = \"/tmp/x\"\nmode = \n", file: "s.toml")
        }
        #expect(error.errors.count == 1)
        #expect(error.errors[0].line == 3, "\(error)")
        #expect(error.errors[0].description.hasPrefix("s.toml:3: "))
    }

    @Test func multiLineArraysDoNotShiftLines() throws {
        let text = """
            [[bind]]
            gesture = "tap"
            run = [
              "echo",
              "[not a header]",
            ]
            colour = "red"
            """
        let error = try requireThrown(ConfigErrors.self) { try ConfigLoader().parse(text, file: "m.toml") }
        #expect(error.errors.map(\.description) == ["m.toml:7: bind[1].colour: unknown key (expected gesture, device, region, direction, edge, fingers, count, phase, shape, in_mode, step, step_of, run, shell, keys, click, switch_mode, for, timeout, cooldown or max_concurrent)"])
    }

    @Test func everyProblemIsReportedNotJustTheFirst() throws {
        let text = """
            [socket]
            max_clients = 0
            [[bind]]
            gesture = "lasso"
            run = ["true"]
            """
        let error = try requireThrown(ConfigErrors.self) { try ConfigLoader().parse(text, file: "e.toml") }
        #expect(error.errors.map(\.line).sorted() == [2, 4])
    }

    @Test func theExampleConfigIsValid() throws {
        let path = String(#filePath).replacingOccurrences(of: "Tests/DaemonTests/ConfigErrorTests.swift", with: "config/gestures.toml")
        let config = try ConfigLoader().load(path: path)
        #expect(!config.bindings.isEmpty)
        #expect(config.bindings.contains { $0.step != nil })
    }
}
