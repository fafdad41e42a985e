import Evdev
import Glibc

/// systemd's watchdog (`WatchdogSec=` in the unit): the loop tells systemd it is alive
/// (`WATCHDOG=1`) at half the interval systemd gives in WATCHDOG_USEC, from a timer of its own in
/// the loop — so a loop stuck anywhere stops the pings, and systemd kills and restarts the
/// service (the mode is restored: ModeRecord). Nil when systemd asked for no watchdog, or
/// asked it of another process (WATCHDOG_PID).
final class Watchdog: LoopSource {
    let interval: Double
    private let notifier: ServiceNotifier
    private let timer: DeadlineTimer

    init?(environment: [String: String], notifier: ServiceNotifier) throws {
        guard let usec = environment["WATCHDOG_USEC"].flatMap({ UInt64($0) }), usec > 0 else { return nil }
        if let pid = environment["WATCHDOG_PID"].flatMap({ Int32($0) }), pid != getpid() { return nil }
        interval = Double(usec) / 2e6
        self.notifier = notifier
        timer = try DeadlineTimer()
    }

    func attach(to loop: EventLoop) throws {
        try loop.add(timer.fd) { [unowned self] _ in
            self.timer.acknowledge()
            self.ping()
        }
        ping()
    }

    private func ping() {
        notifier.send("WATCHDOG=1")
        timer.arm(MonotonicClock.now() + interval)
    }
}
