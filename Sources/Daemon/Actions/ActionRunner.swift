import CLinux
import Glibc
import Evdev
import GestureKit
import Logging

/// Performs the actions bound to gestures: matches each event against the bindings, applies
/// steps and cooldown; commands are started by the SpawnWorker's thread (capped per binding; a
/// run counts from the gesture, while it is starting too), reaped on SIGCHLD and killed when
/// they outlive their timeout (SIGTERM, then SIGKILL); keys and clicks are written at once to
/// the virtual devices (VirtualOutputs).
public final class ActionRunner {
    private struct Running {
        var binding: Int
        var started: Double
        var deadline: Double
        var terminated = false
        /// The command itself has exited; what it started in its process group may still run,
        /// and the run counts (timeout, max_concurrent) until the group is empty.
        var leaderExited = false
    }

    /// Seconds running commands get after the daemon's SIGTERM before their groups get SIGKILL.
    static let exitGrace = 1.0

    /// Seconds between SIGTERM and SIGKILL for a command past its timeout.
    static let killGrace = 2.0

    /// A run handed to the spawner whose process id is not known yet.
    private struct Starting {
        var binding: Int
        var started: Double
        var timeout: Double
        var program: String
        var cause: String
    }

    private var bindings: [Binding] = []
    private var running: [pid_t: Running] = [:]
    private var starting: [Int: Starting] = [:]
    private var nextRun = 0
    /// Exits reaped while their spawn's outcome was still on its way (a command that ends at
    /// once), matched when it arrives; kept only while runs are starting.
    private var exitedUnclaimed: [pid_t: Int32] = [:]
    private let spawner: SpawnWorker
    private var lastRun: [Int: Double] = [:]
    private var steps: [Int: StepTracker] = [:]
    private let baseEnvironment: [String]
    private let log: Logger
    public let outputs: VirtualOutputs

    public init(log: Logger) throws {
        self.log = log
        spawner = try SpawnWorker()
        outputs = VirtualOutputs(log: log)
        // The daemon's own environment, minus anything a gesture variable would shadow.
        var env: [String] = []
        var p = environ
        while let s = p.pointee {
            let entry = String(cString: s)
            if !entry.hasPrefix("GESTURE_") && !entry.hasPrefix("NOTIFY_SOCKET=") && !entry.hasPrefix("LISTEN_") { env.append(entry) }
            p += 1
        }
        baseEnvironment = env
        // Orphans of a command (`sleep 100 &` in a shell) become our children instead of init's:
        // their exits arrive as SIGCHLD, so a run ends when its whole group has ended.
        _ = gestured_become_subreaper()
    }

    /// New bindings (reload). Running commands keep running under their old timeouts; the
    /// virtual devices follow what the bindings need, and what `others` (the sequences'
    /// actions, performed by the service) need.
    public func setBindings(_ b: [Binding], others: [Binding] = []) {
        bindings = b
        outputs.configure(for: b + others)
        lastRun = [:]
        steps = [:]
    }

    public var runningCount: Int { running.count + starting.count }

    /// Readable when started commands' process ids (or spawn errors) are ready: the loop then
    /// calls `collectStarted`.
    public var startedFD: Int32 { spawner.doneFD }

    /// The earliest command timeout, for the loop's timer (read after every wakeup: no array made).
    public var deadline: Double? { running.values.lazy.map(\.deadline).min() }

    /// The kiosk's mode: bindings with `in_mode` act only in their modes.
    public var mode = KioskMode.implicitName
    /// Carries out a `switch_mode` action (the service owns the modes): mode, `for`, the binding.
    public var switchMode: (_ mode: String, _ seconds: Double?, _ binding: Binding) -> Void = { _, _, _ in }

    /// Runs the bindings `e` matches. The clock is read only when one matches: every gesture
    /// event comes through here (a pan's on every frame), and in an emulated VM a clock read is
    /// a system call. Bindings are tested in place and copied only when one matches.
    public func handle(_ e: GestureEvent, device: DeviceLabel, now clock: @autoclosure () -> Double) {
        var time: Double?
        for i in bindings.indices where bindings[i].matches(e, device: device, mode: mode) {
            let b = bindings[i]
            let now = time ?? clock()
            time = now
            var stepCount: Int? = nil
            if let step = b.step, let q = b.stepOf {
                stepCount = steps[b.index, default: StepTracker()].steps(e, device: device.id, step: step, of: q)
                if e.phase == .changed && stepCount == nil { continue }
            }
            perform(b, for: (e, device), steps: stepCount, now: now)
        }
        // Steps also reset on phases the binding does not fire on.
        if e.kind.isContinuous {
            for i in bindings.indices where bindings[i].step != nil && bindings[i].gesture == e.kind && !bindings[i].phases.contains(e.phase) {
                let b = bindings[i]
                if let q = b.stepOf, let step = b.step { _ = steps[b.index, default: StepTracker()].steps(e, device: device.id, step: step, of: q) }
            }
        }
    }

    /// Carries out one binding's action, unless it is in its cooldown or at `max_concurrent`:
    /// a matched `[[bind]]`, a completed `[[sequence]]`, or the screen's wake command (no
    /// gesture: no `GESTURE_*` variables).
    public func perform(_ b: Binding, for gesture: (event: GestureEvent, device: DeviceLabel)?, steps stepCount: Int? = nil, now: Double) {
        let cause = gesture.map { "\($0.event.kind.rawValue) \($0.event.phase.rawValue)" } ?? "the screen waking"
        if let last = lastRun[b.index], now - last < b.cooldown {
            log.debug("binding \(b.index): in cooldown, \(cause) skipped")
            return
        }
        switch b.action {
        case .command(let command):
            let active = running.values.filter { $0.binding == b.index }.count
                + starting.values.filter { $0.binding == b.index }.count
            if active >= b.maxConcurrent {
                log.warning("binding \(b.index): \(active) run(s) still going (max_concurrent \(b.maxConcurrent)), \(cause) skipped")
                return
            }
            let variables = gesture.map { GestureEnvironment.variables($0.event, device: $0.device, steps: stepCount) } ?? []
            let env = baseEnvironment + variables.map { "\($0.0)=\($0.1)" }
            do {
                try spawner.submit(.init(run: nextRun, argv: command.argv, environment: env))
                starting[nextRun] = Starting(binding: b.index, started: now, timeout: b.timeout, program: command.argv[0], cause: cause)
                nextRun += 1
                lastRun[b.index] = now
            } catch {
                log.error("binding \(b.index): \(error)")
            }
        case .switchMode(let m, let seconds):
            lastRun[b.index] = now
            switchMode(m, seconds, b)
        case .keys, .click:
            do {
                try outputs.perform(b.action, at: gesture?.event.center ?? Point(x: 0.5, y: 0.5))
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

    /// Takes the spawner's outcomes: a started command joins the running ones (its timeout
    /// counted from the gesture), a failed one is logged.
    public func collectStarted(now: Double) {
        for o in spawner.takeOutcomes() {
            guard let s = starting.removeValue(forKey: o.run) else { continue }
            guard let pid = o.pid else {
                log.error("binding \(s.binding): \(o.error ?? "not started")")
                continue
            }
            running[pid] = Running(binding: s.binding, started: s.started, deadline: s.started + s.timeout)
            log.info("binding \(s.binding): started \(s.program) (pid \(pid)) for \(s.cause)")
            if let status = exitedUnclaimed.removeValue(forKey: pid) { leaderExited(pid, status: status, now: now) }
        }
        if starting.isEmpty { exitedUnclaimed.removeAll() }
        removeEndedRuns()
    }

    /// Collects every exited child (SIGCHLD) and logs how it ended.
    public func reap(now: Double) {
        collectStarted(now: now)
        while true {
            var status: Int32 = 0
            let pid = waitpid(-1, &status, WNOHANG)
            if pid <= 0 { break }
            if running[pid] == nil, !starting.isEmpty { exitedUnclaimed[pid] = status }
            leaderExited(pid, status: status, now: now)
        }
        removeEndedRuns()
    }

    /// A run ends when its command has exited and nothing is left in its process group.
    private func removeEndedRuns() {
        for (group, r) in running where r.leaderExited && !Self.groupAlive(group) {
            running.removeValue(forKey: group)
        }
    }

    /// Logs how a command ended; its run lasts until its process group is empty.
    private func leaderExited(_ pid: pid_t, status: Int32, now: Double) {
        guard let r = running[pid], !r.leaderExited else { return }
        running[pid]?.leaderExited = true
        let secs = String(Int((now - r.started) * 1000)) + " ms"
        let low = status & 0x7f
        if low == 0 {
            let code = (status >> 8) & 0xff
            let level: Logger.Level = code == 0 ? .info : .warning
            log.log(level: level, "binding \(r.binding): pid \(pid) exited with status \(code) after \(secs)")
        } else {
            let how = r.terminated ? " (timed out)" : ""
            log.warning("binding \(r.binding): pid \(pid) killed by signal \(low)\(how) after \(secs)")
        }
    }

    /// True while any process is in the group (a zombie still counts until reaped).
    private static func groupAlive(_ group: pid_t) -> Bool { kill(-group, 0) == 0 || errno == EPERM }

    /// On the daemon's SIGTERM, running commands are stopped with it (the choice documented in
    /// the README): each group gets SIGTERM, then SIGKILL after `exitGrace` seconds. Nothing
    /// gestured started outlives it.
    public func stopAll() {
        spawner.stop()
        collectStarted(now: MonotonicClock.now())
        guard !running.isEmpty else { return }
        log.info("stopping \(running.count) running command(s)")
        for group in running.keys { kill(-group, SIGTERM) }
        let end = MonotonicClock.now() + Self.exitGrace
        while !running.isEmpty && MonotonicClock.now() < end {
            usleep(10_000)
            reap(now: MonotonicClock.now())
        }
        for (group, r) in running {
            log.warning("binding \(r.binding): process group \(group) outlived SIGTERM, sending SIGKILL")
            kill(-group, SIGKILL)
        }
        usleep(10_000)
        reap(now: MonotonicClock.now())
    }

    /// Kills commands past their timeout: SIGTERM first, SIGKILL after a grace period.
    public func expire(now: Double) {
        for (pid, r) in running where r.deadline <= now {
            if r.terminated {
                log.warning("binding \(r.binding): pid \(pid) ignored SIGTERM, sending SIGKILL")
                kill(-pid, SIGKILL)
                running[pid]?.deadline = now + 3600  // reaped on SIGCHLD
            } else {
                log.warning("binding \(r.binding): pid \(pid) ran past its timeout, sending SIGTERM")
                kill(-pid, SIGTERM)
                running[pid]?.terminated = true
                running[pid]?.deadline = now + Self.killGrace
            }
        }
    }
}
