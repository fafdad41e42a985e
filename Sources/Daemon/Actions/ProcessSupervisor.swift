import CLinux
import Glibc
import Logging

/// The commands bindings start, from spawn to the end of their process group: started by the
/// SpawnWorker's thread (a run counts from the gesture, while it is starting too), reaped on
/// SIGCHLD, and killed when they outlive their timeout (SIGTERM, then SIGKILL).
public final class ProcessSupervisor {
    private struct Running {
        var binding: Int
        var started: Double
        var deadline: Double
        var terminated = false
        /// The command itself has exited; what it started in its process group may still run,
        /// and the run counts (timeout, max_concurrent) until the group is empty.
        var leaderExited = false
    }

    /// A run handed to the spawner whose process id is not known yet.
    private struct Starting {
        var binding: Int
        var started: Double
        var timeout: Double
        var program: String
        var cause: String
    }

    /// Seconds running commands get after the daemon's SIGTERM before their groups get SIGKILL.
    static let exitGrace = 1.0

    /// Seconds between SIGTERM and SIGKILL for a command past its timeout.
    static let killGrace = 2.0

    /// Read after every wakeup (`deadline`).
    private var running: [pid_t: Running] = [:]
    private var starting: [Int: Starting] = [:]
    private var nextRun = 0
    /// Exits reaped while their spawn's outcome was still on its way (a command that ends at
    /// once), matched when it arrives; kept only while runs are starting.
    private var exitedUnclaimed: [pid_t: Int32] = [:]
    private let spawner: SpawnWorker
    private let log: Logger
    /// Called after the spawner's outcomes are collected: a run may have ended meanwhile (the
    /// service checks whether a finished replay can exit).
    var collected: () -> Void = {}

    init(log: Logger) throws {
        self.log = log
        // The daemon's own environment, minus anything a gesture variable would shadow.
        var env: [String] = []
        var p = environ
        while let s = p.pointee {
            let entry = String(cString: s)
            if !entry.hasPrefix("GESTURE_") && !entry.hasPrefix("NOTIFY_SOCKET=") && !entry.hasPrefix("LISTEN_") { env.append(entry) }
            p += 1
        }
        spawner = try SpawnWorker(baseEnvironment: env)
        // Orphans of a command (`sleep 100 &` in a shell) become our children instead of init's:
        // their exits arrive as SIGCHLD, so a run ends when its whole group has ended.
        _ = gestured_become_subreaper()
    }

    public var runningCount: Int { running.count + starting.count }

    /// Runs of one binding, started or starting (`max_concurrent`).
    func active(binding: Int) -> Int {
        var count = 0
        for r in running.values where r.binding == binding { count += 1 }
        for s in starting.values where s.binding == binding { count += 1 }
        return count
    }

    /// Hands a command to the spawner; its timeout counts from `now` (the gesture).
    /// `variables`: `NAME=value` each.
    func start(_ argv: [String], variables: [String], binding: Int, timeout: Double, cause: String, now: Double) throws {
        try spawner.submit(.init(run: nextRun, argv: argv, variables: variables))
        starting[nextRun] = Starting(binding: binding, started: now, timeout: timeout, program: argv[0], cause: cause)
        nextRun += 1
    }

    /// Readable when started commands' process ids (or spawn errors) are ready: the loop then
    /// calls `collectStarted`.
    var startedFD: Int32 { spawner.doneFD }

    /// The earliest command timeout, for the loop's timer. Read after every wakeup, so a plain
    /// loop: `values.lazy.map(\.deadline).min()` went through a key path, ~600 instructions a
    /// wakeup with nothing running (host callgrind, 2026-11-26).
    public var deadline: Double? {
        guard !running.isEmpty else { return nil }
        var earliest = Double.infinity
        for r in running.values where r.deadline < earliest { earliest = r.deadline }
        return earliest
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

extension ProcessSupervisor: LoopSource, TimedSource {
    func attach(to loop: EventLoop) throws {
        try loop.add(startedFD) { [unowned self] _ in
            self.collectStarted(now: MonotonicClock.now())
            self.collected()
        }
    }

    func due(now: Double) { expire(now: now) }
}
