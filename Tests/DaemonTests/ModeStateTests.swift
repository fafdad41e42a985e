@testable import Daemon
import Evdev
import GestureKit
import Testing

/// Which mode the kiosk is in, and when it leaves it by itself; and the secret sequences.
@Suite struct ModeStateTests {
    func config() throws -> ModesConfig { try ConfigLoader().parse(ModeConfigTests.kiosk, file: "m.toml").modes }

    @Test func aSwitchForAWhileGoesBackToTheModeBefore() throws {
        var m = ModeState(try config(), now: 0)
        #expect(m.current.name == "locked" && m.deadline == nil)
        #expect(m.switchTo("asleep", reason: "socket", for: 30, now: 10) == .init(mode: "asleep", previous: "locked", reason: "socket"))
        #expect(m.deadline == 40)
        #expect(m.due(now: 39) == nil)
        #expect(m.due(now: 40) == .init(mode: "locked", previous: "asleep", reason: "timer"))
        #expect(m.deadline == nil)
        #expect(m.switchTo("nowhere", reason: "socket", now: 41) == nil && m.current.name == "locked")
        #expect(m.switchTo("locked", reason: "socket", now: 41) == nil)
    }

    @Test func idleCountsFromTheLastTouchDownAndWakesOncePerTimeoutWhileBusy() throws {
        var m = ModeState(try config(), now: 0)
        _ = m.switchTo("normal", reason: "sequence", now: 100)
        #expect(m.deadline == 700)
        m.touched(now: 500)
        #expect(m.deadline == 700)  // not moved at each touch
        #expect(m.due(now: 700) == nil)
        #expect(m.deadline == 1100)  // set for the last touch when it fired
        #expect(m.due(now: 1100) == .init(mode: "locked", previous: "normal", reason: "idle"))
        #expect(m.deadline == nil)  // locked has no timeout: no more wakeups
    }

    @Test func aReloadKeepsTheModeWhenItStillExists() throws {
        var m = ModeState(try config(), now: 0)
        _ = m.switchTo("asleep", reason: "socket", now: 1)
        #expect(m.reload(try config(), now: 2) == nil && m.current.name == "asleep")
        #expect(m.reload(ModesConfig(), now: 3) == .init(mode: KioskMode.implicitName, previous: "asleep", reason: "reload"))
    }

    // MARK: sequences

    func tap(_ region: String?, at t: Double) -> GestureEvent {
        var e = GestureEvent(kind: .tap, phase: .recognized, time: t, fingers: 1, center: Point(x: 0.5, y: 0.5), centerMM: Point(x: 0, y: 0))
        e.region = region
        e.tapCount = 1
        return e
    }

    let device = DeviceLabel(name: "screen", id: "screen")

    @Test func aSequenceCompletesInOrderWithinItsTimeAndInItsModes() throws {
        var s = SequenceMatcher(try config().sequences)
        #expect(s.feed(tap("tl", at: 0), device: device, mode: "locked").isEmpty)
        #expect(s.feed(tap("br", at: 2), device: device, mode: "locked").map(\.name) == ["unlock"])
        // Too slow.
        _ = s.feed(tap("tl", at: 10), device: device, mode: "locked")
        #expect(s.feed(tap("br", at: 12.6), device: device, mode: "locked").isEmpty)
        // Another gesture between the steps breaks it; the wrong order does not complete it.
        _ = s.feed(tap("tl", at: 20), device: device, mode: "locked")
        _ = s.feed(tap(nil, at: 20.5), device: device, mode: "locked")
        #expect(s.feed(tap("br", at: 21), device: device, mode: "locked").isEmpty)
        _ = s.feed(tap("br", at: 30), device: device, mode: "locked")
        #expect(s.feed(tap("tl", at: 31), device: device, mode: "locked").isEmpty)
        // A step that breaks it may start it again.
        #expect(s.feed(tap("br", at: 31.5), device: device, mode: "locked").map(\.name) == ["unlock"])
        // Not in its mode.
        _ = s.feed(tap("tl", at: 40), device: device, mode: "normal")
        #expect(s.feed(tap("br", at: 41), device: device, mode: "normal").isEmpty)
    }
}
