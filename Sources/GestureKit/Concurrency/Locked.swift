import Glibc

/// A value shared between threads, read and written only under a POSIX mutex.
///
/// Not the standard library's `Mutex` (Synchronization): on Linux it locks with futex calls that
/// ThreadSanitizer cannot see, so two threads taking the same `Mutex` in turn are reported as a
/// race on its value (a "Swift access race": docs/testing.md, Sanitizers). TSan
/// intercepts pthread_mutex_lock and unlock, so behind this lock its reports are real ones. The
/// users are off every per-frame path: interning a name, a bound command's start, a log line's
/// time stamp, the MQTT link's queues.
///
/// Invariant: `value` is touched only between `pthread_mutex_lock` and `pthread_mutex_unlock` of
/// `mutex`, which stays at one address (allocated) from init to deinit — hence `@unchecked
/// Sendable`.
public final class Locked<Value: Sendable>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    public init(_ value: Value) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        self.value = value
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value, holding the lock; `body` must not take this lock again.
    public func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
