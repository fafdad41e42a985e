import CLinux
import Evdev
import GestureKit
import Glibc

/// Starts bound commands off the daemon's thread.
///
/// posix_spawn (glibc: clone with CLONE_VFORK) suspends its caller until the child has exec'd,
/// and exec reads the program and its interpreter from disk. On a slow disk — or an emulated
/// one, where the soak (VM scenario 30) caught it — that stalled the input loop long enough for
/// the kernel's evdev buffer to overflow: SYN_DROPPED, and the stroke in flight was lost. So one
/// worker thread spawns, and the loop hears back through an eventfd it watches (`doneFD`), as
/// the MQTT link does. The thread starts with the first command and lives until `stop()`.
final class SpawnWorker: @unchecked Sendable {
    struct Request: Sendable {
        var run: Int
        var argv: [String]
        /// The gesture's variables after the base environment: `NAME=value` entries, each ended
        /// by a NUL (GestureEnvironment).
        var variables: [UInt8]
    }

    /// How a request ended: the started process (its group has the same id), or why not.
    struct Outcome: Sendable {
        var run: Int
        var pid: pid_t?
        var error: String?
        /// When posix_spawn returned (CLOCK_MONOTONIC): the command's start, for its latency.
        var at = 0.0
    }

    private struct Shared {
        var requests: [Request] = []
        var outcomes: [Outcome] = []
        var stopping = false
    }

    /// Readable when outcomes wait in `takeOutcomes`.
    let doneFD: Int32
    /// Counts requests for the worker, which blocks reading it.
    private let wakeFD: Int32
    private let shared = Locked(Shared())
    private var thread: pthread_t?
    /// What every command's environment starts with, as C strings made once, not copied from
    /// the daemon's environment for every command (speed: docs/architecture.md). Only the
    /// worker reads it, until `deinit`.
    private let base: [UnsafeMutablePointer<CChar>?]

    init(baseEnvironment: [String]) throws {
        base = baseEnvironment.map { strdup($0) }
        doneFD = eventfd(0, Int32(EFD_NONBLOCK) | Int32(EFD_CLOEXEC))
        wakeFD = eventfd(0, Int32(EFD_CLOEXEC))
        if doneFD < 0 || wakeFD < 0 { throw SystemError("eventfd") }
    }

    deinit {
        stop()
        close(doneFD)
        close(wakeFD)
        for p in base { free(p) }
    }

    /// Queues a command; its outcome arrives through `doneFD`.
    func submit(_ r: Request) throws {
        if thread == nil { thread = try startWorkerThread { [self] in work() } }
        shared.withLock { $0.requests.append(r) }
        bump(wakeFD)
    }

    /// Outcomes since the last call, in the order the requests were made, in `taken` (which
    /// the caller empties, keeping its capacity). The two arrays trade places: neither is
    /// allocated again for each command (speed: docs/architecture.md).
    func takeOutcomes(into taken: inout [Outcome]) {
        var n: UInt64 = 0
        _ = read(doneFD, &n, 8)
        shared.withLock { swap(&$0.outcomes, &taken) }
    }

    /// Ends the thread after the spawn in progress, if any; queued requests are dropped and
    /// returned as outcomes with an error, so every run is accounted for.
    func stop() {
        guard let t = thread else { return }
        shared.withLock { s in
            s.stopping = true
            s.outcomes += s.requests.map { Outcome(run: $0.run, pid: nil, error: "not started: the daemon is stopping") }
            s.requests.removeAll()
        }
        bump(wakeFD)
        pthread_join(t, nil)
        thread = nil
    }

    private func work() {
        while true {
            var n: UInt64 = 0
            _ = read(wakeFD, &n, 8)  // an interrupted read only means one more look at the queue
            while let r = shared.withLock({ s -> Request? in
                guard !s.stopping, !s.requests.isEmpty else { return nil }
                return s.requests.removeFirst()
            }) {
                var outcome = Outcome(run: r.run)
                do { outcome.pid = try Spawner.spawn(argv: r.argv, base: base, variables: r.variables) } catch {
                    outcome.error = "\(error)"
                }
                outcome.at = MonotonicClock.now()
                shared.withLock { $0.outcomes.append(outcome) }
                bump(doneFD)
            }
            if shared.withLock({ $0.stopping }) { return }
        }
    }

    private func bump(_ fd: Int32) {
        var one: UInt64 = 1
        _ = write(fd, &one, 8)
    }
}
