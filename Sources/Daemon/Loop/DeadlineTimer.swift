import CLinux
import Glibc

/// One timerfd, armed for the earliest thing that must happen (a recognizer timeout, a command
/// timeout, the next event of a real-time replay) and disarmed when nothing is pending.
public final class DeadlineTimer {
    public let fd: Int32
    private var armed: Double? = nil

    public init() throws {
        fd = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK) | Int32(TFD_CLOEXEC))
        if fd < 0 { throw SystemError("timerfd_create") }
    }

    deinit { close(fd) }

    static let never = 1e12

    /// Arms for `deadline` (absolute, monotonic seconds), or disarms with nil. The service calls
    /// it after every wakeup and few change the deadline: the check is inlined, the system call
    /// kept out of line (speed: docs/architecture.md).
    @inline(__always)
    public func arm(_ deadline: Double?) {
        if deadline != armed { set(deadline) }
    }

    @inline(never)
    private func set(_ deadline: Double?) {
        armed = deadline
        var spec = itimerspec()
        if let d = deadline {
            // 0 would disarm: a deadline already past fires after one nanosecond.
            // Clamped to 30,000 years: a later (or NaN) deadline must not trap converting to Int.
            let t = d.isNaN ? Self.never : min(max(d, 1e-9), Self.never)
            spec.it_value.tv_sec = Int(t)
            spec.it_value.tv_nsec = max(1, Int((t - Double(Int(t))) * 1e9))
        }
        timerfd_settime(fd, Int32(TFD_TIMER_ABSTIME), &spec, nil)
    }

    /// Consumes the expiration count after the fd became readable.
    public func acknowledge() {
        var count: UInt64 = 0
        _ = gestured_read(fd, &count, 8)  // shim.h: no cancellation point
        armed = nil
    }
}
