import Evdev
import GestureKit
import Logging

/// The kiosk's modes at work (ModeState holds which one and its timers) and the secret
/// sequences: a switch applies the mode's recognizers and passthrough to every device, tells the
/// runner (bindings' `in_mode`), and is broadcast to socket clients and the fleet. The screen's
/// state is read here, at the first touch of each sequence.
final class ModeControl: GestureSink, TouchGate, TimedSource {
    private(set) var state: ModeState
    private var sequences: SequenceMatcher
    private let runner: ActionRunner
    private let devices: DeviceRegistry
    private let hub: SocketHub
    /// The fleet's broker hears of each change too, when there is one.
    weak var fleet: Fleet?
    private let log: Logger
    /// Switches asked for during this wakeup, made after it (`afterWakeup`).
    private var requests: [(mode: String, reason: String, seconds: Double?)] = []
    /// Changes of this wakeup, broadcast after it, so that the client whose command caused one
    /// reads its reply first.
    private var announced: [String] = []
    /// Whether `afterWakeup` has anything to do: the service tests this flag after every wakeup
    /// instead of calling in (~30 instructions a wakeup, host callgrind, 2026-11-26).
    private(set) var hasPending = false
    /// The next time `due` has something to do (ModeState.deadline), kept as the state changes:
    /// the service reads it after every wakeup.
    private(set) var deadline: Double?

    init(_ config: ModesConfig, runner: ActionRunner, devices: DeviceRegistry, hub: SocketHub, log: Logger, now: Double) {
        state = ModeState(config, now: now)
        deadline = state.deadline
        sequences = SequenceMatcher(config.sequences)
        self.runner = runner
        self.devices = devices
        self.hub = hub
        self.log = log
        runner.mode = state.current.name
        runner.switchMode = { [unowned self] mode, seconds, binding in
            self.switchMode(to: mode, reason: "binding \(binding.index)", for: seconds)
        }
    }

    var current: KioskMode { state.current }

    /// Asks for a mode (a command, a binding, a sequence, a waking touch); false when there is
    /// no such mode. The switch happens after this wakeup: a binding or sequence asks while its
    /// device's arena is delivering a gesture, and the switch changes that arena's recognizers.
    @discardableResult
    func switchMode(to name: String, reason: String, for seconds: Double? = nil) -> Bool {
        guard state.config.mode(named: name) != nil else { return false }
        requests.append((name, reason, seconds))
        hasPending = true
        return true
    }

    func unknownMode(_ name: String) -> String {
        "unknown mode \"\(name)\" (defined: \(state.config.names.joined(separator: ", ")))"
    }

    /// After each wakeup: the switches asked for during it, in order, then their broadcast.
    func afterWakeup() {
        if !requests.isEmpty {
            let now = MonotonicClock.now()
            for r in requests {
                let change = state.switchTo(r.mode, reason: r.reason, for: r.seconds, now: now)
                deadline = state.deadline
                apply(change, now: now)
            }
            requests.removeAll()
        }
        for line in announced { hub.broadcast(line) }
        announced.removeAll()
        hasPending = false
    }

    /// A `for` ran out, or the mode's idle timeout.
    func due(now: Double) {
        let change = state.due(now: now)
        deadline = state.deadline
        apply(change, now: now)
    }

    /// After a reload: the same mode if it still exists, with the new config's settings.
    func reload(_ config: ModesConfig, now: Double) {
        sequences = SequenceMatcher(config.sequences)
        let change = state.reload(config, now: now)
        deadline = state.deadline
        runner.mode = state.current.name
        for s in devices.sessions { apply(to: s, now: now) }
        if let c = change { announce(c) }
    }

    private func apply(_ change: ModeState.Change?, now: Double) {
        guard let c = change else { return }
        runner.mode = c.mode
        for s in devices.sessions { apply(to: s, now: now) }
        announce(c)
    }

    /// The mode's recognizers (within the device's own, minus those a client disabled) and
    /// what the app gets.
    func apply(to s: DeviceSession, now: Double) {
        let mode = state.current
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
        announced.append(w.text)
        hasPending = true
        fleet?.mode(w.text, name: c.mode)
    }

    /// A secret sequence's step: a completed sequence runs its action (a binding's), or switches
    /// the mode.
    func take(_ g: inout OutgoingGesture) {
        guard !sequences.sequences.isEmpty else { return }
        for q in sequences.feed(g.event, device: g.device, mode: state.current.name) {
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
        state.touched(now: now)
        fleet?.touched(now: now)
        let wakeMode = state.current.wakeMode
        let screen = state.config.screen
        guard wakeMode != nil || (screen.state.map(ScreenState.isDark) ?? false) else { return false }
        log.info("touch on a dark screen: waking it")
        if let w = screen.wake {
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
