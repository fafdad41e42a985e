import CLinux
import Glibc
import Evdev
import GestureKit
import Logging

/// Performs the actions bound to gestures: matches each event against the bindings, applies
/// steps, cooldown and `max_concurrent`; commands go to the ProcessSupervisor (started, reaped,
/// timed out), keys and clicks are written at once to the virtual devices (VirtualOutputs).
public final class ActionRunner {
    private var bindings: [Binding] = []
    /// The gestures some binding is on, each once: most events concern none (`concerns`).
    private var boundKinds: [GestureKind] = []
    private var lastRun: [Int: Double] = [:]
    private var steps: [Int: StepTracker] = [:]
    private let log: Logger
    public let outputs: VirtualOutputs
    /// The commands' processes.
    public let processes: ProcessSupervisor

    public init(log: Logger) throws {
        self.log = log
        processes = try ProcessSupervisor(log: log)
        outputs = VirtualOutputs(log: log)
    }

    /// New bindings (reload). Running commands keep running under their old timeouts; the
    /// virtual devices follow what the bindings need, and what `others` (the sequences'
    /// actions, performed by the service) need.
    public func setBindings(_ b: [Binding], others: [Binding] = []) {
        bindings = b
        boundKinds = Array(Set(b.map { $0.filter.gesture }))
        outputs.configure(for: b + others)
        lastRun = [:]
        steps = [:]
    }

    /// The kiosk's mode: bindings with `in_mode` act only in their modes.
    public var mode = KioskMode.implicitName
    /// Carries out a `switch_mode` action (the service owns the modes): mode, `for`, the binding.
    public var switchMode: (_ mode: String, _ seconds: Double?, _ binding: Binding) -> Void = { _, _, _ in }
    /// Told each key chord or click written for a gesture: its device, seconds from its frame's
    /// kernel time to the write (the service's latency record; commands: ProcessSupervisor).
    var keysTyped: (DeviceLabel, Double) -> Void = { _, _ in }

    /// Whether some binding is on this gesture: read before `handle`, so that an event no binding
    /// is on costs a look at its kind, not a copy and the bindings' loop (speed:
    /// docs/architecture.md).
    func concerns(_ kind: GestureKind) -> Bool { boundKinds.contains(kind) }

    /// Runs the bindings `e` matches. The clock is read only when one matches: every gesture
    /// event comes through here (a pan's on every frame), and in an emulated VM a clock read is
    /// a system call. Bindings are read from a local copy of the array (one retain): read from the
    /// property, each was copied around every test; a call on one still copies it, so the
    /// gesture's kind is checked first (speed: docs/architecture.md).
    public func handle(_ e: GestureEvent, device: DeviceLabel, now clock: @autoclosure () -> Double) {
        let bindings = self.bindings
        var time: Double?
        bindings.withUnsafeBufferPointer { bs in
            guard let first = bs.baseAddress else { return }
            for i in bs.indices {
                let b = first + i
                // The kind first: a field read in place; a call on `pointee` copies the binding.
                guard b.pointee.gesture == e.kind, b.pointee.matches(e, device: device, mode: mode) else { continue }
                let now = time ?? clock()
                time = now
                var stepCount: Int? = nil
                if let step = b.pointee.step, let q = b.pointee.stepOf {
                    stepCount = steps[b.pointee.index, default: StepTracker()].steps(e, device: device.id, step: step, of: q)
                    if e.phase == .changed && stepCount == nil { continue }
                }
                perform(b.pointee, for: (e, device), steps: stepCount, now: now)
            }
            // Steps also reset on phases the binding does not fire on.
            guard e.kind.isContinuous else { return }
            for i in bs.indices {
                let b = first + i
                guard let q = b.pointee.stepOf, let step = b.pointee.step, b.pointee.gesture == e.kind, !b.pointee.phases.contains(e.phase) else { continue }
                _ = steps[b.pointee.index, default: StepTracker()].steps(e, device: device.id, step: step, of: q)
            }
        }
    }

    /// Carries out one binding's action, unless it is in its cooldown or at `max_concurrent`:
    /// a matched `[[bind]]`, a completed `[[sequence]]`, or the screen's wake command (no
    /// gesture: no `GESTURE_*` variables).
    public func perform(_ b: Binding, for gesture: (event: GestureEvent, device: DeviceLabel)?, steps stepCount: Int? = nil, now: Double) {
        let cause = RunCause(gesture: gesture.map { ($0.event.kind, $0.event.phase) })
        if let last = lastRun[b.index], now - last < b.cooldown {
            log.debug("binding \(b.index): in cooldown, \(cause) skipped")
            return
        }
        switch b.action {
        case .command(let command):
            let active = processes.active(binding: b.index)
            if active >= b.maxConcurrent {
                log.warning("binding \(b.index): \(active) run(s) still going (max_concurrent \(b.maxConcurrent)), \(cause) skipped")
                return
            }
            let variables = gesture.map { GestureEnvironment.variables($0.event, device: $0.device, steps: stepCount) } ?? []
            do {
                try processes.start(command.argv, variables: variables, binding: b.index, timeout: b.timeout, cause: cause,
                                    origin: gesture.map { ($0.device, $0.event.time) }, now: now)
                lastRun[b.index] = now
            } catch {
                log.error("binding \(b.index): \(error)")
            }
        case .switchMode(let m, let seconds):
            lastRun[b.index] = now
            switchMode(m, seconds, b)
        case .keys, .click:
            do {
                try outputs.perform(b.action, at: gesture?.event.center ?? Point(x: 0.5, y: 0.5), now: now)
                // Keys only: a click is made `VirtualPointer.announceSeconds` later, on purpose.
                if case .keys = b.action, let g = gesture { keysTyped(g.device, MonotonicClock.now() - g.event.time) }
                lastRun[b.index] = now
                log.info("binding \(b.index): \(Self.describe(b.action)) for \(cause)")
            } catch {
                log.error("binding \(b.index): \(error)")
            }
        }
    }

    private static func describe(_ action: BoundAction) -> String {
        switch action {
        case .command(let c): "ran \(c.argv[0])"
        case .keys(let chords): "typed " + chords.map(\.text).joined(separator: ", ")
        case .click(let button): "clicked \(button.rawValue)"
        case .switchMode(let m, _): "mode \(m)"
        }
    }
}
