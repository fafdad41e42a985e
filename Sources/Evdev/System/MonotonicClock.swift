import CLinux
import Glibc

/// CLOCK_MONOTONIC in seconds: the clock of live input events (libevdev_set_clock_id) and timers.
public enum MonotonicClock {
    public static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
