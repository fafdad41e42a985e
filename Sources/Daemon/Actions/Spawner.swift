import CLinux
import Glibc

/// Starts a program with posix_spawn: no shell, its own process group (so a timeout kills
/// whatever it started too), default signal handling and an unblocked signal mask (the daemon
/// blocks its signals for the signalfd; children must not inherit that).
enum Spawner {
    /// The signals a command gets with their default action: the daemon's, and SIGPIPE.
    private static let defaultSignals: sigset_t = {
        var set = sigset_t()
        sigemptyset(&set)
        for s in SignalChannel.handled + [SIGPIPE] { sigaddset(&set, s) }
        return set
    }()

    /// `environment`: `base` (C strings made once, for the daemon's life) and then `variables`,
    /// `NAME=value` entries each ended by a NUL (GestureEnvironment). The C arrays point into
    /// memory on the stack for the call: nothing is copied with strdup and freed after (speed:
    /// docs/architecture.md).
    static func spawn(argv: [String], base: [UnsafeMutablePointer<CChar>?], variables: [UInt8]) throws -> pid_t {
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var defaults = defaultSignals
        posix_spawnattr_setsigmask(&attr, &empty)
        posix_spawnattr_setsigdefault(&attr, &defaults)
        posix_spawnattr_setpgroup(&attr, 0)
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        var textBytes = 0
        for a in argv { textBytes += a.utf8.count + 1 }
        // Room for GestureEnvironment's entries, not one per two bytes of them: that made the
        // array too large for the stack, allocated for each command (speed: docs/architecture.md).
        let pointers = argv.count + 1 + base.count + GestureEnvironment.maxEntries + 1
        return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: textBytes) { text in
            try withUnsafeTemporaryAllocation(of: UnsafeMutablePointer<CChar>?.self, capacity: pointers) { p in
                // argv: each argument copied with its NUL.
                var cursor = ByteWriter(text.baseAddress!, capacity: textBytes)
                var n = 0
                for a in argv {
                    p[n] = UnsafeMutableRawPointer(cursor.cursor).assumingMemoryBound(to: CChar.self)
                    cursor.write(a)
                    cursor.write(byte: 0)
                    n += 1
                }
                p[n] = nil
                n += 1
                let cArgv = p.baseAddress!
                let cEnv = cArgv + n
                for b in base {
                    p[n] = b
                    n += 1
                }
                return try variables.withUnsafeBufferPointer { v in
                    var i = 0
                    while i < v.count && n < pointers - 1 {
                        let entry = UnsafeMutableRawPointer(mutating: v.baseAddress! + i).assumingMemoryBound(to: CChar.self)
                        p[n] = entry
                        n += 1
                        i += strlen(entry) + 1
                    }
                    p[n] = nil
                    var pid: pid_t = 0
                    let rc = posix_spawnp(&pid, cArgv[0]!, nil, &attr, cArgv, cEnv)
                    if rc != 0 { throw SystemError("spawn \(argv[0])", code: rc) }
                    return pid
                }
            }
        }
    }
}
