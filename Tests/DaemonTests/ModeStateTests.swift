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
        #expect(s.feed(tap("tl", at: 0), device: device, mode: "locked").done.isEmpty)
        #expect(s.feed(tap("br", at: 2), device: device, mode: "locked").done.map(\.name) == ["unlock"])
        // Too slow.
        _ = s.feed(tap("tl", at: 10), device: device, mode: "locked")
        #expect(s.feed(tap("br", at: 12.6), device: device, mode: "locked").done.isEmpty)
        // Another gesture between the steps breaks it; the wrong order does not complete it.
        _ = s.feed(tap("tl", at: 20), device: device, mode: "locked")
        _ = s.feed(tap(nil, at: 20.5), device: device, mode: "locked")
        #expect(s.feed(tap("br", at: 21), device: device, mode: "locked").done.isEmpty)
        _ = s.feed(tap("br", at: 30), device: device, mode: "locked")
        #expect(s.feed(tap("tl", at: 31), device: device, mode: "locked").done.isEmpty)
        // A step that breaks it may start it again.
        #expect(s.feed(tap("br", at: 31.5), device: device, mode: "locked").done.map(\.name) == ["unlock"])
        // Not in its mode.
        _ = s.feed(tap("tl", at: 40), device: device, mode: "normal")
        #expect(s.feed(tap("br", at: 41), device: device, mode: "normal").done.isEmpty)
    }

    /// Broken attempts are reported (a sequence begun, then broken), and after five in a row the
    /// back-off pauses every sequence: 30 s, then 60 s, until one completes.
    @Test func brokenAttemptsPauseTheSequences() throws {
        var s = SequenceMatcher(try config().sequences)
        var b = SequenceBackOff()
        var t = 0.0
        var paused: [Double] = []
        /// One try in the wrong order: tl, then a tap elsewhere.
        func attempt() {
            for e in [tap("tl", at: t), tap(nil, at: t + 0.2)] where b.allows(at: e.time) {
                let fed = s.feed(e, device: device, mode: "locked")
                if let p = b.record(completed: !fed.done.isEmpty, broke: fed.broke, at: e.time) { paused.append(p); s.reset() }
            }
            t += 1
        }
        for _ in 0..<5 { attempt() }
        #expect(paused == [30])
        // During the pause the right order does nothing.
        let during = [b.allows(at: t), b.allows(at: t + 28)]
        #expect(during == [false, false])
        t += 30
        for _ in 0..<5 { attempt() }
        #expect(paused == [30, 60])
        t += 60
        let after = b.allows(at: t)
        #expect(after)
        let done = s.feed(tap("tl", at: t), device: device, mode: "locked").done + s.feed(tap("br", at: t + 1), device: device, mode: "locked").done
        #expect(done.map(\.name) == ["unlock"])
        let restarted = b.record(completed: true, broke: false, at: t + 1)
        #expect(restarted == nil)
        for _ in 0..<5 { attempt() }
        #expect(paused == [30, 60, 30], "a completion starts the pauses over")
    }
}
