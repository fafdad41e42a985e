import CLinux
import Glibc

/// Starts a program with posix_spawn: no shell, its own process group (so a timeout kills
/// whatever it started too), default signal handling and an unblocked signal mask (the daemon
/// blocks its signals for the signalfd; children must not inherit that).
enum Spawner {
    /// `environment`: `base` (C strings made once, for the daemon's life) and then `variables`.
    static func spawn(argv: [String], base: [UnsafeMutablePointer<CChar>?], variables: [String]) throws -> pid_t {
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for s in SignalChannel.handled + [SIGPIPE] { sigaddset(&defaults, s) }
        posix_spawnattr_setsigmask(&attr, &empty)
        posix_spawnattr_setsigdefault(&attr, &defaults)
        posix_spawnattr_setpgroup(&attr, 0)
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        // withCString: a String passed straight to strdup is first copied into a fresh array.
        let cArgv = argv.map { $0.withCString { strdup($0) } } + [nil]
        var cEnv = base
        cEnv.reserveCapacity(base.count + variables.count + 1)
        for v in variables { cEnv.append(v.withCString { strdup($0) }) }
        cEnv.append(nil)
        defer {
            for p in cArgv { free(p) }
            for p in cEnv[base.count...] { free(p) }
        }
        var pid: pid_t = 0
        let rc = posix_spawnp(&pid, argv[0], nil, &attr, cArgv, cEnv)
        if rc != 0 { throw SystemError("spawn \(argv[0])", code: rc) }
        return pid
    }
}
