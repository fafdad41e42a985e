@testable import Daemon
import Evdev
import GestureKit
import Testing

/// `[[mode]]`, `[modes]`, `[screen]`, `[[sequence]]`, and bindings' `in_mode` / `switch_mode`:
/// read, and every mistake reported with file, line and key.
@Suite struct ModeConfigTests {
    /// A dark screen's mode: nothing runs, the app gets nothing, a touch wakes it to `locked`.
    static let asleep = """
        [[mode]]
        name = "asleep"
        recognizers = []
        passthrough = "none"
        wake_mode = "locked"
        """

    static let kiosk = """
        [[region]]
        name = "tl"
        rect = [0, 0, 0.1, 0.1]
        [[region]]
        name = "br"
        rect = [0.9, 0.9, 1, 1]

        [modes]
        initial = "locked"

        [[mode]]
        name = "normal"
        idle_timeout = 600
        idle_mode = "locked"

        [[mode]]
        name = "locked"
        recognizers = ["tap", "circle"]
        passthrough = "none"

        \(asleep)

        [screen]
        state = "/sys/class/drm/card0-HDMI-A-1/dpms"
        wake = ["/usr/local/bin/wake"]

        [[sequence]]
        name = "unlock"
        steps = [{ gesture = "tap", region = "tl" }, { gesture = "tap", region = "br" }]
        within = 2.5
        in_mode = "locked"
        switch_mode = "normal"
        for = 300

        [[bind]]
        gesture = "circle"
        in_mode = ["normal", "locked"]
        run = ["/bin/true"]

        [[bind]]
        gesture = "swipe"
        switch_mode = "asleep"
        """

    func errors(_ text: String) throws -> [String] {
        let e = try requireThrown(ConfigErrors.self) { try ConfigLoader().parse(text, file: "m.toml") }
        return e.errors.map(\.description)
    }

    @Test func aKioskConfigIsRead() throws {
        let c = try ConfigLoader().parse(Self.kiosk, file: "m.toml").modes
        #expect(c.names == ["normal", "locked", "asleep"])
        #expect(c.initial == "locked")
        let locked = try #require(c.mode(named: "locked"))
        #expect(!locked.appGetsTouches && locked.runs("tap") && !locked.runs("pan"))
        #expect(c.mode(named: "normal")?.idleTimeout == 600 && c.mode(named: "normal")?.idleMode == "locked")
        #expect(c.mode(named: "asleep")?.wakeMode == "locked" && c.mode(named: "asleep")?.runs("tap") == false)
        #expect(c.screen.state == "/sys/class/drm/card0-HDMI-A-1/dpms" && c.screen.wake == .argv(["/usr/local/bin/wake"]))
        let q = try #require(c.sequences.first)
        #expect(q.steps.map(\.region) == ["tl", "br"] && q.within == 2.5 && q.regions == ["tl", "br"])
        #expect(q.binding.action == .switchMode("normal", for: 300) && q.binding.inModes == ["locked"])
        #expect(q.binding.index == 3)  // numbered after the two [[bind]]s
    }

    @Test func bindingsTakeInModeAndSwitchMode() throws {
        let b = try ConfigLoader().parse(Self.kiosk, file: "m.toml").bindings
        #expect(b[0].inModes == ["normal", "locked"] && b[0].isActive(in: "locked") && !b[0].isActive(in: "asleep"))
        #expect(b[1].inModes == nil && b[1].isActive(in: "asleep"))
        #expect(b[1].action == .switchMode("asleep", for: nil))
    }

    @Test func withoutModesThereIsOneDefaultModeThatRunsEverything() throws {
        let c = try ConfigLoader().parse("[[bind]]\ngesture = \"tap\"\nrun = [\"/bin/true\"]\n", file: "m.toml").modes
        #expect(c.names == [KioskMode.implicitName] && c.initial == KioskMode.implicitName)
        #expect(c.modes[0].appGetsTouches && c.modes[0].runs("pan"))
    }

    @Test func mistakesAreReportedAtTheirLineAndKey() throws {
        let e = try errors("""
            [[region]]
            name = "tl"
            rect = [0, 0, 0.1, 0.1]
            [[mode]]
            name = "normal"
            idle_timeout = 5
            [[mode]]
            name = "normal"
            passthrough = "some"
            wake_mode = "nope"
            [modes]
            initial = "lockd"
            [[sequence]]
            name = "x"
            steps = [{ gesture = "tap", region = "zz" }]
            switch_mode = "maint"
            [[bind]]
            gesture = "tap"
            in_mode = ["lockd"]
            for = 3
            run = ["/bin/true"]
            [screen]
            state = "dpms"
            """)
        let expected = [
            "m.toml:6: mode[1].idle_timeout: idle_timeout and idle_mode go together",
            "m.toml:8: mode[2].name: mode \"normal\" is defined twice",
            "m.toml:9: mode[2].passthrough: expected \"all\"",
            "m.toml:10: mode[2].wake_mode: unknown mode \"nope\" (defined: normal)",
            "m.toml:12: modes.initial: unknown mode \"lockd\"",
            "m.toml:19: bind[1].in_mode: unknown mode \"lockd\"",
            "m.toml:20: bind[1].for: applies to switch_mode only",
            "m.toml:15: sequence[1].steps: expected 2…16 steps",
            "m.toml:15: sequence[1].steps[1].region: unknown region \"zz\"",
            "m.toml:16: sequence[1].switch_mode: unknown mode \"maint\"",
            "m.toml:23: screen.state: must be an absolute path",
        ]
        for x in expected { #expect(e.contains { $0.hasPrefix(x) }, "\(x) not in \(e)") }
        #expect(e.count == expected.count, "\(e)")
    }

    @Test func theShippedKioskExampleLoads() throws {
        let c = try ConfigLoader().load(path: DaemonHarness.root.path + "/config/kiosk.toml")
        #expect(c.modes.names == ["normal", "locked", "maintenance", "asleep"])
        #expect(c.modes.sequences.map(\.name) == ["unlock"])
    }

    @Test func aSequencesRegionsAreDelayedOnPassedThroughDevices() throws {
        let c = try ConfigLoader().parse(Self.kiosk + "\n[defaults]\npassthrough = true\n", file: "m.toml")
        let info = try Recording.load(path: DaemonHarness.circleRecording).info
        let rules = try #require(PipelineFactory.passthroughRules(c.settings(for: info.identity).settings, info: info, config: c))
        #expect(rules.delayRects.count == 2)
    }
}
