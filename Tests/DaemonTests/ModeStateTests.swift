@testable import Daemon
import Evdev
import GestureKit
import Foundation
import Glibc
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

    // MARK: the ways out of a closed mode

    /// The shipped kiosk example (config/kiosk.toml).
    func shipped() throws -> ModesConfig { try ConfigLoader().load(path: DaemonHarness.root.path + "/config/kiosk.toml").modes }

    /// Locked, then the screensaver's `{"mode":"asleep"}`: the waking touch goes back to locked,
    /// not to asleep's `wake_mode = "normal"`. From normal it wakes to normal as before.
    @Test func theScreensaverNeverUnlocksTheShippedKiosk() throws {
        var m = ModeState(try shipped(), now: 0)
        _ = m.switchTo("locked", reason: "binding 1", now: 1)
        _ = m.switchTo("asleep", reason: "socket", now: 2)
        #expect(m.switchTo("normal", reason: ModeState.wakeReason, now: 3) == .init(mode: "locked", previous: "asleep", reason: "wake"))
        #expect(m.floor == nil)
        _ = m.switchTo("normal", reason: "sequence", now: 4)
        _ = m.switchTo("asleep", reason: "socket", now: 5)
        #expect(m.switchTo("normal", reason: ModeState.wakeReason, now: 6) == .init(mode: "normal", previous: "asleep", reason: "wake"))
    }

    /// The sequence's maintenance for 600 s: maintenance's idle timeout (120 s, to normal) lands
    /// in locked, where the kiosk came from; staff who choose normal with their gesture get it.
    @Test func maintenanceLeftIdleGoesBackToLocked() throws {
        var m = ModeState(try shipped(), now: 0)
        _ = m.switchTo("locked", reason: "binding 1", now: 0)
        _ = m.switchTo("maintenance", reason: "sequence", for: 600, now: 10)
        #expect(m.floor == "locked")
        #expect(m.due(now: 130) == .init(mode: "locked", previous: "maintenance", reason: "idle"))
        #expect(m.deadline == nil && m.floor == nil)
        _ = m.switchTo("maintenance", reason: "sequence", for: 600, now: 200)
        #expect(m.switchTo("normal", reason: "binding 3", now: 210) == .init(mode: "normal", previous: "maintenance", reason: "binding 3"))
        #expect(m.floor == nil && m.deadline == nil)
    }

    /// A locked mode's own idle timeout to an open mode keeps it locked (check-config names it).
    @Test func anIdleTimeoutNeverOpensALockedMode() throws {
        var c = try shipped()
        let i = try #require(c.modes.firstIndex { $0.name == "locked" })
        (c.modes[i].idleTimeout, c.modes[i].idleMode) = (60, "normal")
        var m = ModeState(c, now: 0)
        _ = m.switchTo("locked", reason: "socket", now: 0)
        #expect(m.due(now: 60) == nil && m.current.name == "locked")
    }

    /// The floor is kept with the mode: a restart in maintenance still goes back to locked.
    @Test func theFloorSurvivesARestart() throws {
        let path = "/tmp/gestured-mode-\(UInt32.random(in: 0...UInt32.max))"
        defer { unlink(path) }
        var m = ModeState(try shipped(), now: 0)
        _ = m.switchTo("locked", reason: "socket", now: 0)
        _ = m.switchTo("maintenance", reason: "sequence", for: 600, now: 10)
        _ = m.switchTo("asleep", reason: "socket", now: 20)
        let record = ModeRecord(path: path)
        #expect(record.save(m) == nil)
        let saved = try #require(record.load())
        #expect(saved == .init(mode: "asleep", back: nil, at: nil, floor: "locked"))
        var again = ModeState(try shipped(), now: 30)
        _ = again.restore(saved, now: 30)
        #expect(again.switchTo("normal", reason: ModeState.wakeReason, now: 31)?.mode == "locked")
    }

    /// check-config names every chain of bindings from a `passthrough = "none"` mode to an open
    /// one; the shipped example has none, and a sequence is not one.
    @Test func checkConfigNamesTheWaysOutOfALockedMode() throws {
        let shippedText = try String(contentsOfFile: DaemonHarness.root.path + "/config/kiosk.toml", encoding: .utf8)
        #expect(ModeOpenings.find(try ConfigLoader().load(path: DaemonHarness.root.path + "/config/kiosk.toml")).isEmpty)
        // A circle in locked goes to asleep (closed), whose double tap goes to normal; and a
        // binding without in_mode opens every locked mode.
        let holes = shippedText + """

            [[bind]]
            gesture = "circle"
            in_mode = "locked"
            switch_mode = "asleep"

            [[bind]]
            gesture = "tap"
            count = 2
            in_mode = "asleep"
            switch_mode = "normal"

            [[bind]]
            gesture = "long_press"
            switch_mode = "maintenance"
            for = 60
            """
        let ways = ModeOpenings.find(try ConfigLoader().parse(holes, file: "k.toml"))
        #expect(ways.contains("mode locked (passthrough = \"none\") opens to normal without a sequence: [[bind]] #4 (circle → asleep), then [[bind]] #5 (tap → normal)"), "\(ways)")
        #expect(ways.contains("mode locked (passthrough = \"none\") opens to maintenance without a sequence: [[bind]] #6 (long_press → maintenance)"), "\(ways)")
        #expect(ways.contains { $0.hasPrefix("mode asleep (passthrough = \"none\") opens to normal") }, "\(ways)")
        let dir = NSTemporaryDirectory() + "gestured-openings-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try holes.write(toFile: dir + "/k.toml", atomically: true, encoding: .utf8)
        let r = try SystemdTests.run([try DaemonHarness.binary(), "check-config", "--quiet", dir + "/k.toml"])
        #expect(r.output.contains("\(dir)/k.toml: warning: mode locked (passthrough = \"none\") opens to normal without a sequence"), "\(r.output)")
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
