import CLinux
import Evdev
import GestureKit
import Glibc
import Logging

/// The commands bindings start, from spawn to the end of their process group: started by the
/// SpawnWorker's thread (a run counts from the gesture, while it is starting too), reaped on
/// SIGCHLD, and killed when they outlive their timeout (SIGTERM, then SIGKILL).
public final class ProcessSupervisor {
    private struct Running {
        /// The command's process id, which is its process group's.
        var pid: pid_t
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
        var run: Int
        var binding: Int
        var started: Double
        var timeout: Double
        var program: String
        var cause: RunCause
        /// The gesture's device and frame time, when a gesture started it (its latency).
        var origin: (device: DeviceLabel, time: Double)?
    }

    /// Seconds running commands get after the daemon's SIGTERM before their groups get SIGKILL.
    static let exitGrace = 1.0

    /// Seconds between SIGTERM and SIGKILL for a command past its timeout.
    static let killGrace = 2.0

    // Runs in arrays searched in order, not dictionaries: they are few (`max_concurrent`), and
    // the dictionaries' hashing, copies while iterating and regrowth cost more (speed:
    // docs/architecture.md). Removing keeps their capacity.
    private var running: [Running] = []
    private var starting: [Starting] = []
    private var nextRun = 0
    /// Exits reaped while their spawn's outcome was still on its way (a command that ends at
    /// once), matched when it arrives; kept only while runs are starting.
    private var exitedUnclaimed: [Exit] = []
    /// A struct, not a tuple: an array of tuples had its type made at run time, at its first
    /// append (speed: docs/architecture.md).
    private struct Exit {
        var pid: pid_t
        var status: Int32
    }
    /// The spawner's outcomes, taken into this buffer (its capacity kept).
    private var outcomes: [SpawnWorker.Outcome] = []
    private let spawner: SpawnWorker
    /// Started by the daemon, or handed to the command runner (inside the service).
    let launch: CommandLaunch
    private let log: Logger
    /// The log's handler, when the lines of every run can go to it as bytes.
    private let journal: JournalLogHandler?
    /// Called after the spawner's outcomes are collected: a run may have ended meanwhile (the
    /// service checks whether a finished replay can exit).
    var collected: () -> Void = {}
    /// Told each command a gesture started: the gesture's device, seconds from its frame's
    /// kernel time to the spawn (the service's latency record).
    var commandStarted: (DeviceLabel, Double) -> Void = { _, _ in }

    init(log: Logger, launch: CommandLaunch = .forThisProcess()) throws {
        self.log = log
        self.launch = launch
        journal = JournalLogHandler.directLines(of: log)
        // Room for a few runs from the start: the first commands do not grow the arrays.
        running.reserveCapacity(4)
        starting.reserveCapacity(4)
        exitedUnclaimed.reserveCapacity(4)
        outcomes.reserveCapacity(4)
        // The daemon's own environment, minus anything a gesture variable would shadow.
        let env = ProcessEnvironment.entries.filter {
            !$0.hasPrefix("GESTURE_") && !$0.hasPrefix("NOTIFY_SOCKET=") && !$0.hasPrefix("LISTEN_")
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
        for r in running where r.binding == binding { count += 1 }
        for s in starting where s.binding == binding { count += 1 }
        return count
    }

    /// Hands a command to the spawner; its timeout counts from `now` (the gesture).
    /// `variables`: `NAME=value` entries, each ended by a NUL (GestureEnvironment).
    func start(_ argv: [String], variables: [UInt8], binding: Int, timeout: Double, cause: RunCause,
               origin: (device: DeviceLabel, time: Double)? = nil, now: Double) throws {
        try spawner.submit(.init(run: nextRun, argv: launch.arguments(for: argv), variables: variables))
        starting.append(Starting(run: nextRun, binding: binding, started: now, timeout: timeout, program: argv[0], cause: cause,
                                 origin: origin))
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
        for r in running where r.deadline < earliest { earliest = r.deadline }
        deadline = earliest < .infinity ? earliest : nil
    }

    /// Takes the spawner's outcomes: a started command joins the running ones (its timeout
    /// counted from the gesture), a failed one is logged.
    public func collectStarted(now: Double) {
        spawner.takeOutcomes(into: &outcomes)
        for o in outcomes {
            guard let si = starting.firstIndex(where: { $0.run == o.run }) else { continue }
            let s = starting.remove(at: si)
            guard let pid = o.pid else {
                log.error("binding \(s.binding): \(o.error ?? "not started")")
                continue
            }
            running.append(Running(pid: pid, binding: s.binding, started: s.started, deadline: s.started + s.timeout))
            if let origin = s.origin { commandStarted(origin.device, o.at - origin.time) }
            logLine(.info, capacity: 120 + s.program.utf8.count) { w in
                w.write("binding "); w.write(s.binding); w.write(": started "); w.write(s.program)
                w.write(" (pid "); w.write(Int(pid))
                if case .runner = launch { w.write(", the relay to the command runner") }
                w.write(") for "); s.cause.write(to: &w)
            }
            if let ei = exitedUnclaimed.firstIndex(where: { $0.pid == pid }) {
                leaderExited(pid, status: exitedUnclaimed.remove(at: ei).status, now: now)
            }
        }
        outcomes.removeAll(keepingCapacity: true)
        if starting.isEmpty { exitedUnclaimed.removeAll(keepingCapacity: true) }
        removeEndedRuns()
    }

    /// A log line written as bytes (ByteWriter): the two lines of every command's run, straight
    /// to the journal's handler when the log has one (JournalLogHandler.directLines).
    private func logLine(_ level: Logger.Level, capacity: Int, file: String = #fileID, line: UInt = #line,
                         _ body: (inout ByteWriter) -> Void) {
        let capacity = capacity + RunCause.maxBytes
        if let journal { return journal.log(level: level, capacity: capacity, file: file, line: line, body) }
        log.log(level: level, Logger.Message(stringLiteral: ByteWriter.string(capacity: capacity, body)), file: file, line: line)
    }

    /// Collects every exited child (SIGCHLD) and logs how it ended.
    public func reap(now: Double) {
        // With nothing starting, no outcome can be waiting.
        if !starting.isEmpty { collectStarted(now: now) }
        while true {
            var status: Int32 = 0
            let pid = waitpid(-1, &status, WNOHANG)
            if pid <= 0 { break }
            if !starting.isEmpty, !running.contains(where: { $0.pid == pid }) { exitedUnclaimed.append(Exit(pid: pid, status: status)) }
            leaderExited(pid, status: status, now: now)
        }
        removeEndedRuns()
    }

    /// A run ends when its command has exited and nothing is left in its process group.
    private func removeEndedRuns() {
        running.removeAll { $0.leaderExited && !Self.groupAlive($0.pid) }
        refreshDeadline()
    }

    /// Logs how a command ended; its run lasts until its process group is empty.
    private func leaderExited(_ pid: pid_t, status: Int32, now: Double) {
        guard let i = running.firstIndex(where: { $0.pid == pid }), !running[i].leaderExited else { return }
        running[i].leaderExited = true
        let r = running[i]
        let ms = Int((now - r.started) * 1000)
        let low = status & 0x7f
        if low == 0 {
            let code = (status >> 8) & 0xff
            let level: Logger.Level = code == 0 ? .info : .warning
            logLine(level, capacity: 80) { w in
                w.write("binding "); w.write(r.binding); w.write(": pid "); w.write(Int(pid))
                w.write(" exited with status "); w.write(Int(code)); w.write(" after "); w.write(ms); w.write(" ms")
            }
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
        for r in running { kill(-r.pid, SIGTERM) }
        let end = MonotonicClock.now() + Self.exitGrace
        while !running.isEmpty && MonotonicClock.now() < end {
            usleep(10_000)
            reap(now: MonotonicClock.now())
        }
        for r in running {
            log.warning("binding \(r.binding): process group \(r.pid) outlived SIGTERM, sending SIGKILL")
            kill(-r.pid, SIGKILL)
        }
        usleep(10_000)
        reap(now: MonotonicClock.now())
    }

    /// Kills commands past their timeout: SIGTERM first, SIGKILL after a grace period.
    public func expire(now: Double) {
        for i in running.indices where running[i].deadline <= now {
            let r = running[i]
            if r.terminated {
                log.warning("binding \(r.binding): pid \(r.pid) ignored SIGTERM, sending SIGKILL")
                kill(-r.pid, SIGKILL)
                running[i].deadline = now + 3600  // reaped on SIGCHLD
            } else {
                log.warning("binding \(r.binding): pid \(r.pid) ran past its timeout, sending SIGTERM")
                kill(-r.pid, SIGTERM)
                running[i].terminated = true
                running[i].deadline = now + Self.killGrace
            }
        }
        refreshDeadline()
    }
}

extension ProcessSupervisor: LoopSource, TimedSource {
    func attach(to loop: EventLoop) throws {
        // Borrowed: the runner, which the service owns, outlives the loop.
        let me = Borrowed(self)
        try loop.add(startedFD) { _ in me.with { $0.spawnerReported() } }
    }

    private func spawnerReported() {
        collectStarted(now: MonotonicClock.now())
        collected()
    }

    func due(now: Double) { expire(now: now) }
}
