import Evdev
import GestureKit
import Logging

/// The kiosk's modes at work (ModeState holds which one and its timers) and the secret
/// sequences: a switch applies the mode's recognizers and passthrough to every device, tells the
/// runner (bindings' `in_mode`), and is broadcast to socket clients and the fleet. The first
/// touch of each sequence is recorded inside its frame (`firstTouch`); what it causes (the idle
/// timer, the fleet's usage, waking a dark screen) runs after the wakeup, with the switches.
final class ModeControl: TouchGate, GestureSink, TimedSource {
    private(set) var state: ModeState
    private var sequences: SequenceMatcher
    /// Each sequence's own back-off, in the order of `sequences`.
    private var backOffs: [SequenceBackOff]
    /// Where the back-offs are kept across restarts and reboots (nil: not kept).
    private let backOffRecord: SequenceBackOffRecord?
    private let runner: ActionRunner
    private let devices: DeviceRegistry
    private let hub: SocketHub
    /// The fleet's broker hears of each change too, when there is one.
    weak var fleet: Fleet?
    private let log: Logger
    /// Switches asked for during this wakeup, made after it (`afterWakeup`).
    private var requests = ModeRequests()
    static let maxChainedSwitches = 8
    /// The first touch of a sequence came during this wakeup (`firstTouch`): where its wake
    /// switch goes among the requests, and whether the screen was found dark (nil: not read yet).
    private var touch: (place: Int, dark: Bool?)?
    /// Changes of this wakeup, broadcast after it, so that the client whose command caused one
    /// reads its reply first.
    private var announced: [String] = []
    /// Whether `afterWakeup` has anything to do: the service tests this flag after every wakeup
    /// instead of calling in (speed: docs/architecture.md).
    private(set) var hasPending = false
    /// The next time `due` has something to do (ModeState.deadline), kept as the state changes:
    /// the service reads it after every wakeup.
    private(set) var deadline: Double?

    /// Where the mode is kept across restarts (nil: not kept).
    private let record: ModeRecord?

    init(_ config: ModesConfig, runner: ActionRunner, devices: DeviceRegistry, hub: SocketHub, log: Logger, now: Double,
         record: ModeRecord? = nil, backOffRecord: SequenceBackOffRecord? = nil) {
        state = ModeState(config, now: now)
        self.record = record
        if let saved = record?.load(), let c = state.restore(saved, now: now) {
            log.notice("mode \(c.mode) restored from \(record!.path) (the initial mode is \(c.previous))")
        }
        deadline = state.deadline
        sequences = SequenceMatcher(config.sequences)
        self.backOffRecord = backOffRecord
        backOffs = Self.loadBackOffs(config.sequences, from: backOffRecord, now: now, log: log)
        self.runner = runner
        self.devices = devices
        self.hub = hub
        self.log = log
        super.init()
        runner.mode = state.current.name
        runner.switchMode = { [unowned self] mode, seconds, binding in
            self.switchMode(to: mode, reason: "binding \(binding.index)", for: seconds)
        }
    }

    var current: KioskMode { state.current }

    /// Whether a gesture is a step of a secret sequence in the current mode: kept from socket
    /// clients and the broker (the service's `deliver`).
    func isSecret(_ g: borrowing OutgoingGesture) -> Bool {
        !sequences.sequences.isEmpty && sequences.isStep(g.event, device: g.device, mode: state.current.name)
    }

    /// Asks for a mode (a command, a binding, a sequence, a waking touch); false when there is
    /// no such mode. The switch happens after this wakeup: a binding or sequence asks while its
    /// device's arena is delivering a gesture, and the switch changes that arena's recognizers.
    @discardableResult
    func switchMode(to name: String, reason: String, for seconds: Double? = nil) -> Bool {
        guard state.config.mode(named: name) != nil else { return false }
        requests.ask(.init(mode: name, reason: reason, seconds: seconds))
        hasPending = true
        return true
    }

    func unknownMode(_ name: String) -> String {
        "unknown mode \"\(name)\" (defined: \(state.config.names.joined(separator: ", ")))"
    }

    /// After each wakeup: the first touch it brought (`tookTouch`), the switches asked for
    /// during it, in order (ModeRequests: one asked while another is applied is made after it, in
    /// this call; a chain of more than `maxChainedSwitches` is a loop in the config, dropped with
    /// an error), then their broadcast.
    func afterWakeup() {
        if touch != nil { tookTouch(now: MonotonicClock.now()) }
        if !requests.isEmpty {
            let now = MonotonicClock.now()
            loop: while true {
                switch requests.nextRound(limit: Self.maxChainedSwitches) {
                case .done:
                    break loop
                case .loop(let dropped):
                    log.error("mode switches asked while applying mode switches \(Self.maxChainedSwitches) times over: dropping \(dropped.map(\.mode)) (a loop of bindings?)")
                    break loop
                case .apply(let batch):
                    for r in batch {
                        let change = state.switchTo(r.mode, reason: r.reason, for: r.seconds, now: now)
                        deadline = state.deadline
                        apply(change, now: now)
                    }
                }
            }
        }
        for line in announced { hub.broadcast(line) }
        announced.removeAll()
        hasPending = false
    }

    /// A `for` ran out, or the mode's idle timeout.
    func due(now: Double) {
        // A touch of this wakeup counts before the idle timeout is judged.
        if touch != nil { tookTouch(now: now) }
        let change = state.due(now: now)
        deadline = state.deadline
        apply(change, now: now)
    }

    /// After a reload: the same mode if it still exists, with the new config's settings.
    func reload(_ config: ModesConfig, now: Double) {
        // A sequence keeps its back-off by name: a reload starts no attempt over.
        let old = Dictionary(zip(sequences.sequences.map(\.name), backOffs)) { a, _ in a }
        sequences = SequenceMatcher(config.sequences)
        backOffs = config.sequences.map { old[$0.name] ?? SequenceBackOff() }
        let change = state.reload(config, now: now)
        deadline = state.deadline
        runner.mode = state.current.name
        for s in devices.sessions { apply(to: s, now: now) }
        keep()
        if let c = change { announce(c) }
    }

    /// Saves the mode (and its `for`) for a restart; a failure is logged, and the kiosk goes on.
    private func keep() {
        guard let r = record, let e = r.save(state) else { return }
        log.error("cannot keep the mode in \(r.path): \(e) (a restart would start in \(state.config.initial))")
    }

    private func apply(_ change: ModeState.Change?, now: Double) {
        keep()
        guard let c = change else { return }
        runner.mode = c.mode
        for s in devices.sessions {
            apply(to: s, now: now)
            warnIfTheAppReadsIt(s)
        }
        announce(c)
    }

    /// A device the registry opened: the current mode applies to it.
    func opened(_ s: DeviceSession, now: Double) {
        apply(to: s, now: now)
        warnIfTheAppReadsIt(s)
    }

    /// The app is kept from a device only through its clone: said, not assumed, when the mode
    /// comes and when a device is plugged in during it.
    private func warnIfTheAppReadsIt(_ s: DeviceSession) {
        guard !state.current.appGetsTouches, s.passthrough == nil, s.player == nil else { return }
        log.warning("mode \(state.current.name) gives the app nothing, but \(s.label.name) has no clone (passthrough off or refused): the app reads it directly")
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
        guard !sequences.sequences.isEmpty, g.event.phase == .recognized || g.event.phase == .ended else { return }
        // The clock's time, not the event's: pauses are kept across restarts in CLOCK_MONOTONIC,
        // and a replay's events carry the recording's times.
        let time = MonotonicClock.now()
        let counting = backOffs.indices.map { backOffs[$0].allows(at: time) }
        let fed = sequences.feed(g.event, device: g.device, mode: state.current.name, counting: counting)
        var changed = false
        for i in fed.completed where backOffs[i] != SequenceBackOff() {
            _ = backOffs[i].record(completed: true, broke: false, at: time)
            changed = true
        }
        for i in fed.broken where !fed.completed.contains(i) {
            changed = true
            if let seconds = backOffs[i].record(completed: false, broke: true, at: time) {
                sequences.reset(i)
                log.warning("sequence \(sequences.sequences[i].name) paused for \(fmt(seconds)) s: \(SequenceBackOff.attempts) attempts broken in a row")
            }
        }
        if changed { keepBackOffs() }
        for q in fed.done {
            log.info("sequence \(q.name) completed")
            if case .switchMode(let m, let seconds) = q.binding.action {
                // The reason broadcast does not name the sequence: listeners learn that one ran, not which.
                switchMode(to: m, reason: "sequence", for: seconds)
            } else {
                runner.perform(q.binding, for: (g.event, g.device), now: MonotonicClock.now())
            }
        }
    }

    /// Each sequence's back-off as an earlier run left it: none kept, a fresh one; a record that
    /// cannot be read, a first pause for every sequence (the stricter side), logged.
    private static func loadBackOffs(_ sequences: [SecretSequence], from record: SequenceBackOffRecord?, now: Double, log: Logger) -> [SequenceBackOff] {
        guard let record, !sequences.isEmpty else { return sequences.map { _ in SequenceBackOff() } }
        switch record.load() {
        case .none:
            return sequences.map { _ in SequenceBackOff() }
        case .bad(let why):
            log.error("cannot read the secret sequences' back-off from \(record.path): \(why); every sequence starts paused for \(fmt(SequenceBackOff.pause(0))) s")
            return sequences.map { _ in SequenceBackOff.unknown(now: now) }
        case .saved(let saved):
            return sequences.map { q in
                let b = saved[q.name]?.capped(now: now) ?? SequenceBackOff()
                if let until = b.pausedUntil, until > now {
                    log.notice("sequence \(q.name) still paused for \(fmt((until - now).rounded(.up))) s (kept in \(record.path))")
                }
                return b
            }
        }
    }

    /// Saves the back-offs for a restart; a failure is logged, and the kiosk goes on.
    private func keepBackOffs() {
        guard let r = backOffRecord, let e = r.save(Array(zip(sequences.sequences.map(\.name), backOffs).map { (name: $0.0, backOff: $0.1) })) else { return }
        log.error("cannot keep the secret sequences' back-off in \(r.path): \(e) (a restart would forget broken attempts)")
    }

    /// The first touch of a sequence on any device, told inside its frame (the pipeline's stage):
    /// recorded, and worked out after the wakeup (`tookTouch`). `answerNow`: the device is passed
    /// through and its clone must know at once whether the app gets the sequence — false when
    /// the screen is dark (the mode has a `wake_mode`, or `[screen] state` reads dark), which
    /// is then read here, once a wakeup; otherwise nothing is read inside the frame.
    override func firstTouch(answerNow: Bool) -> Bool {
        if touch == nil {
            touch = (requests.count, nil)
            hasPending = true
        }
        guard answerNow else { return false }
        if let dark = touch?.dark { return dark }
        let dark = screenIsDark()
        touch?.dark = dark
        return dark
    }

    private func screenIsDark() -> Bool {
        state.current.wakeMode != nil || (state.config.screen.state.map(ScreenState.isDark) ?? false)
    }

    /// What the wakeup's first touch causes: the idle timer and the fleet's usage restart; on a
    /// dark screen the wake command runs and the switch to `wake_mode` takes the touch's place
    /// among the requests.
    private func tookTouch(now: Double) {
        guard let t = touch else { return }
        touch = nil
        state.touched(now: now)
        fleet?.touched(now: now)
        guard t.dark ?? screenIsDark() else { return }
        log.info("touch on a dark screen: waking it")
        runWake(now: now)
        if let m = state.current.wakeMode, state.config.mode(named: m) != nil {
            requests.ask(.init(mode: m, reason: ModeState.wakeReason, seconds: nil), at: t.place)
            hasPending = true
        }
    }

    /// The wake command of a touch on a dark screen (`tookTouch`).
    private func runWake(now: Double) {
        guard let w = state.config.screen.wake else { return }
        let b = Binding(index: 0, filter: GestureFilter(gesture: .tap), step: nil, stepOf: nil, action: .command(w),
                        timeout: 10, cooldown: 0, maxConcurrent: 1)
        runner.perform(b, for: nil, now: now)
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
