import Evdev
import GestureKit
import Logging

/// The kiosk's modes at work (ModeState holds which one and its timers): a switch applies the
/// mode's recognizers and passthrough to every device, tells the runner (bindings' `in_mode`),
/// and is broadcast to socket clients and the fleet. The screen's state is read here, at the
/// first touch of each sequence.
extension GestureService: GestureSink {
    /// Asks for a mode (a command, a binding, a sequence, a waking touch); false when there is
    /// no such mode. The switch happens after this wakeup: a binding or sequence asks while its
    /// device's arena is delivering a gesture, and the switch changes that arena's recognizers.
    @discardableResult
    func switchMode(to name: String, reason: String, for seconds: Double? = nil) -> Bool {
        guard config.modes.mode(named: name) != nil else { return false }
        modeRequests.append((name, reason, seconds))
        return true
    }

    /// The switches asked for during this wakeup, in order.
    func switchModes(now: Double) {
        for r in modeRequests { apply(modes.switchTo(r.mode, reason: r.reason, for: r.seconds, now: now), now: now) }
        modeRequests.removeAll()
    }

    /// A `for` ran out, or the mode's idle timeout.
    func modesDue(now: Double) {
        apply(modes.due(now: now), now: now)
    }

    /// After a reload: the same mode if it still exists, with the new config's settings.
    func reloadModes(now: Double) {
        sequences = SequenceMatcher(config.modes.sequences)
        let change = modes.reload(config.modes, now: now)
        runner.mode = modes.current.name
        for s in devices.sessions { applyMode(to: s, now: now) }
        if let c = change { announce(c) }
    }

    private func apply(_ change: ModeState.Change?, now: Double) {
        guard let c = change else { return }
        runner.mode = c.mode
        for s in devices.sessions { applyMode(to: s, now: now) }
        announce(c)
    }

    /// The mode's recognizers (within the device's own, minus those a client disabled) and
    /// what the app gets.
    func applyMode(to s: DeviceSession, now: Double) {
        let mode = modes.current
        devices.with(s) { s, out in s.apply(mode, now: now, into: &out) }
    }

    private func announce(_ c: ModeState.Change) {
        var w = JSONWriter()
        w.beginObject()
        w.key("event"); w.string("mode")
        w.key("mode"); w.string(c.mode)
        w.key("previous"); w.string(c.previous)
        w.key("reason"); w.string(c.reason)
        w.endObject()
        log.info("mode \(c.mode) (was \(c.previous); \(c.reason))")
        modeEvents.append(w.text)
        fleet?.mode(w.text)
    }

    /// A secret sequence's step: a completed sequence runs its action (a binding's), or switches
    /// the mode.
    func take(_ g: inout OutgoingGesture) {
        guard !sequences.sequences.isEmpty else { return }
        for q in sequences.feed(g.event, device: g.device, mode: modes.current.name) {
            log.info("sequence \(q.name) completed")
            if case .switchMode(let m, let seconds) = q.binding.action {
                switchMode(to: m, reason: "sequence \(q.name)", for: seconds)
            } else {
                runner.perform(q.binding, for: (g.event, g.device), now: MonotonicClock.now())
            }
        }
    }

    /// The first touch of a sequence on any device. True when the screen is dark (the mode has
    /// a `wake_mode`, or `[screen] state` reads dark): the touch wakes it — the wake command
    /// runs, the mode becomes `wake_mode` — and the app gets none of that sequence.
    func touchDown() -> Bool {
        let now = MonotonicClock.now()
        modes.touched(now: now)
        let wakeMode = modes.current.wakeMode
        guard wakeMode != nil || (config.modes.screen.state.map(ScreenState.isDark) ?? false) else { return false }
        log.info("touch on a dark screen: waking it")
        if let w = config.modes.screen.wake {
            let b = Binding(index: 0, filter: GestureFilter(gesture: .tap), step: nil, stepOf: nil, action: .command(w),
                            timeout: 10, cooldown: 0, maxConcurrent: 1)
            runner.perform(b, for: nil, now: now)
        }
        if let m = wakeMode { switchMode(to: m, reason: "wake") }
        return true
    }
}

/// The display's state from sysfs: a DRM connector's `dpms` ("On"/"Off"/"Standby"/"Suspend")
/// or a backlight's `bl_power` (0 on, 4 powerdown). Anything unreadable counts as lit, so a
/// wrong path never swallows touches.
enum ScreenState {
    static func isDark(_ path: String) -> Bool {
        guard let data = FileSystem.contents(atPath: path, maxBytes: 64) else { return false }
        let text = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace).first.map(String.init) ?? ""
        if let n = Int(text) { return n != 0 }
        return text == "Off" || text == "Standby" || text == "Suspend"
    }
}
