@testable import Daemon
import Evdev
import GestureKit
import Logging
import Testing

/// Who owns whether a recognizer runs: its switch (a client's `disable`, Home Assistant's switch)
/// and the kiosk's mode, each its own; a recognizer runs when both say so, and neither writes the
/// other's. So a mode never turns a Home Assistant switch off behind its back, and a switch
/// turned on while the mode does not run its recognizer waits for a mode that does.
@Suite struct RecognizerSwitchTests {
    func session() throws -> (DeviceSession, DaemonConfig) {
        let config = try ConfigLoader().parse(ModeConfigTests.kiosk, file: "m.toml")
        let recording = try Recording.load(path: DaemonHarness.circleRecording)
        return (DeviceSession(recording: recording, fast: true, config: config, log: Logger(label: "test")), config)
    }

    func state(_ pairs: [(name: String, enabled: Bool)], _ name: String) -> Bool? {
        pairs.first { $0.name == name }?.enabled
    }

    @Test func theModeAndTheSwitchAreSeparateOwners() throws {
        let (s, config) = try session()
        let locked = try #require(config.modes.mode(named: "locked"))
        let normal = try #require(config.modes.mode(named: "normal"))
        var out: [GestureEvent] = []

        // The locked mode runs tap and circle only: pan does not run, but its switch stays on.
        s.apply(locked, now: 0, into: &out)
        #expect(state(s.recognizers, "pan") == false)
        #expect(state(s.switches, "pan") == true)
        #expect(state(s.recognizers, "circle") == true)

        // Switched off under the locked mode: circle stops, and stays off in a mode that runs it.
        s.disabled.insert("circle")
        s.apply(locked, now: 1, into: &out)
        #expect(state(s.recognizers, "circle") == false)
        s.apply(normal, now: 2, into: &out)
        #expect(state(s.recognizers, "circle") == false && state(s.switches, "circle") == false)
        #expect(state(s.recognizers, "pan") == true)

        // Switched on again: it runs in the normal mode at once.
        s.disabled.remove("circle")
        s.apply(normal, now: 3, into: &out)
        #expect(state(s.recognizers, "circle") == true && state(s.switches, "circle") == true)
    }
}
