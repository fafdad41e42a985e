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
        var cause: RunCause
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
    /// `variables`: `NAME=value` entries, each ended by a NUL (GestureEnvironment).
    func start(_ argv: [String], variables: [UInt8], binding: Int, timeout: Double, cause: RunCause, now: Double) throws {
        try spawner.submit(.init(run: nextRun, argv: argv, variables: variables))
        starting[nextRun] = Starting(binding: binding, started: now, timeout: timeout, program: argv[0], cause: cause)
        nextRun += 1
    }

    /// Readable when started commands' process ids (or spawn errors) are ready: the loop then
    /// calls `collectStarted`.
    var startedFD: Int32 { spawner.doneFD }

    /// The earliest command timeout, for the loop's timer, kept as the runs change
    /// (`refreshDeadline`): the service reads it after every wakeup.
    public private(set) var deadline: Double?

    private func refreshDeadline() {
        var earliest = Double.infinity
        for r in running.values where r.deadline < earliest { earliest = r.deadline }
        deadline = earliest < .infinity ? earliest : nil
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
            log.info(Self.line(capacity: 80 + s.program.utf8.count) { w in
                w.write("binding "); w.write(s.binding); w.write(": started "); w.write(s.program)
                w.write(" (pid "); w.write(Int(pid)); w.write(") for "); s.cause.write(to: &w)
            })
            if !exitedUnclaimed.isEmpty, let status = exitedUnclaimed.removeValue(forKey: pid) { leaderExited(pid, status: status, now: now) }
        }
        // Keeping its capacity: a command that ends before its spawn's outcome arrives is common
        // (/bin/true), and growing the table again cost ~14,000 instructions.
        if starting.isEmpty && !exitedUnclaimed.isEmpty { exitedUnclaimed.removeAll(keepingCapacity: true) }
        removeEndedRuns()
    }

    /// A log line written as bytes (ByteWriter): the two lines of every command's run.
    private static func line(capacity: Int, _ body: (inout ByteWriter) -> Void) -> Logger.Message {
        Logger.Message(stringLiteral: ByteWriter.string(capacity: capacity + RunCause.maxBytes, body))
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
        refreshDeadline()
    }

    /// Logs how a command ended; its run lasts until its process group is empty.
    private func leaderExited(_ pid: pid_t, status: Int32, now: Double) {
        guard let i = running.index(forKey: pid), !running.values[i].leaderExited else { return }
        running.values[i].leaderExited = true
        let r = running.values[i]
        let ms = Int((now - r.started) * 1000)
        let low = status & 0x7f
        if low == 0 {
            let code = (status >> 8) & 0xff
            let level: Logger.Level = code == 0 ? .info : .warning
            log.log(level: level, Self.line(capacity: 80) { w in
                w.write("binding "); w.write(r.binding); w.write(": pid "); w.write(Int(pid))
                w.write(" exited with status "); w.write(Int(code)); w.write(" after "); w.write(ms); w.write(" ms")
            })
        } else {
            let how = r.terminated ? " (timed out)" : ""
            log.warning("binding \(r.binding): pid \(pid) killed by signal \(low)\(how) after \(ms) ms")
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
        refreshDeadline()
    }
}

extension ProcessSupervisor: LoopSource, TimedSource {
    func attach(to loop: EventLoop) throws {
        // Borrowed: the runner, which the service owns, outlives the loop.
        let me = Unmanaged.passUnretained(self)
        try loop.add(startedFD) { _ in me._withUnsafeGuaranteedRef { $0.spawnerReported() } }
    }

    private func spawnerReported() {
        collectStarted(now: MonotonicClock.now())
        collected()
    }

    func due(now: Double) { expire(now: now) }
}
