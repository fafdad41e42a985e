import Evdev
import GestureKit
import Logging

/// What the registry tells the service: the gestures a session produced, and sessions opened
/// and closed (the modes apply to a new one; the fleet announces both).
protocol DeviceRegistryDelegate: AnyObject {
    func deliver(_ events: [GestureEvent], from session: DeviceSession)
    func opened(_ session: DeviceSession)
    func closed(_ session: DeviceSession)
    /// Ghosts and palms a session counted since it last told.
    func counted(_ more: ConditioningCount)
}

/// The service's devices, one session each: the `--replay` recordings, and the live devices udev
/// reports (enumerated at start, followed through hotplug, one session per node). Each session's
/// wakeup fills one reused buffer, handed to the delegate as it returns. Each session adds its
/// device to the loop itself; the registry adds the udev monitor.
final class DeviceRegistry: TimedSource {
    private(set) var sessions: [DeviceSession] = []
    /// Whether a device opened is first run a made-up stroke (HotPathWarmUp): from the moment
    /// the daemon is ready, when start-up's pages were let go.
    var warmsOnOpen = false
    private var monitor: DeviceMonitor?
    private let loop: EventLoop
    private let log: Logger
    /// The service, which owns the registry (unowned, not weak: see DeviceSession.gate).
    unowned(unsafe) var delegate: DeviceRegistryDelegate?
    /// Asked at each sequence's first touch on any device (the modes, which the service owns).
    var gate: Borrowed<TouchGate>?
    /// The config new sessions are opened with (replaced by `rebuild`).
    private var config: DaemonConfig
    /// Clones whose panel went, waiting for its return (the service's timer expires them).
    let keeper: CloneKeeper
    /// Lent to one session's wakeup at a time (`with`); nothing else touches it meanwhile.
    private var produced: [GestureEvent] = []

    init(loop: EventLoop, config: DaemonConfig, log: Logger) {
        self.loop = loop
        self.config = config
        self.log = log
        keeper = CloneKeeper(log: log)
    }

    var recordings: [RecordingPlayer] { sessions.compactMap(\.player) }

    /// Runs `body` on a session with the buffer, then hands what it produced to the delegate.
    /// Every change to a session's wake time comes through here (or `add`, `close`, `restart`).
    /// Inlined with its body: left to the optimizer, it became one more call on the read path,
    /// with DeviceSession.readable called out of line from it (release disassembly).
    @inline(__always)
    func with(_ s: DeviceSession, _ body: (DeviceSession, inout [GestureEvent]) -> Void) {
        body(s, &produced)
        // One session (a device or a replay, the usual case): the deadline is its wake time.
        if sessions.count == 1 { deadline = s.wakeTime } else { refreshDeadline() }
        guard !produced.isEmpty else { return }
        delegate?.deliver(produced, from: s)
        produced.removeAll(keepingCapacity: true)
    }

    /// The `--replay` recordings, started at once unless `hold`.
    func openRecordings(_ paths: [String], fast: Bool, hold: Bool, now: Double) throws {
        for path in paths {
            let session = DeviceSession(recording: try Recording.load(path: path), fast: fast, config: config, log: log)
            if !hold { session.player?.start(now: now) }
            session.registry = Borrowed(self)
            add(session)
        }
    }

    /// Opens every live device udev knows and follows hotplug.
    func startLive() {
        let monitor = DeviceMonitor()
        self.monitor = monitor
        if let notice = monitor.notice { log.notice("\(notice)") }
        if monitor.fd >= 0 {
            do {
                try loop.add(monitor.fd) { [unowned self] _ in self.deviceChanges() }
            } catch {
                log.error("cannot watch for new devices: \(error)")
            }
        }
        for candidate in monitor.enumerate() { open(candidate) }
    }

    private func deviceChanges() {
        guard let monitor else { return }
        for change in monitor.receive() {
            switch change {
            case .added(let candidate): open(candidate)
            case .removed(let devnode):
                if let s = sessions.first(where: { $0.devnode == devnode }) { close(s, lost: true) }
            }
        }
    }

    private func open(_ candidate: DeviceCandidate) {
        guard !sessions.contains(where: { $0.devnode == candidate.devnode }) else { return }
        do {
            let device = try EvdevDevice(devnode: candidate.devnode, properties: candidate.properties)
            let session = try DeviceSession(device: device, config: config, keeper: keeper, log: log)
            session.registry = Borrowed(self)
            try session.attach(to: loop)
            add(session)
            log.info("opened \(device.info.name) at \(candidate.devnode)\(device.isGrabbed ? " (grabbed)" : "")")
            if warmsOnOpen { HotPathWarmUp.warm([device.info], config: config) }
        } catch {
            log.warning("cannot open \(candidate.devnode): \(error)")
        }
    }

    /// A live session's device is readable: the whole of its handler in the loop, which only
    /// forwards here, lending the session unretained (one frame a wakeup, not two). `.gone`
    /// closes it (`closeGone`).
    @inline(never)
    func readable(_ session: DeviceSession) {
        var status = SourceStatus.open
        with(session) { s, out in status = s.readable(into: &out) }
        if status == .gone { closeGone(Borrowed(session)) }
    }

    /// A session's conditioning counts grew (after a read or a replay's wake, not per frame).
    @inline(never)
    func counted(_ more: ConditioningCount) { delegate?.counted(more) }

    /// Holds the session strongly while it is closed: closing drops the registry's reference,
    /// the last, and the handler lent it unretained.
    @inline(never)
    private func closeGone(_ session: Borrowed<DeviceSession>) {
        let closing = session.retained()
        close(closing, lost: false)
        withExtendedLifetime(closing) {}
    }

    private func add(_ session: DeviceSession) {
        session.gate = gate
        sessions.append(session)
        refreshDeadline()
        delegate?.opened(session)
    }

    /// A recording's replay starts again from its first event; what it had in flight is cancelled.
    func restart(_ s: DeviceSession, now: Double) {
        guard let player = s.player else { return }
        if player.isPlaying { with(s) { s, out in s.cancel(now: now, into: &out) } }
        player.start(now: now)
        refreshDeadline()
    }

    /// Closes a session; `lost`: its gestures are cancelled first (hot-unplug).
    func close(_ session: DeviceSession, lost: Bool) {
        if lost { with(session) { s, out in s.cancel(now: MonotonicClock.now(), panelGone: true, into: &out) } }
        session.close()
        sessions.removeAll { $0 === session }
        refreshDeadline()
        delegate?.closed(session)
    }

    /// Wakes the sessions whose time has come; closes those whose device went away meanwhile.
    /// The sessions are borrowed from a copy of the array (closing one edits `sessions`), which
    /// holds them meanwhile, not retained one by one (speed: docs/architecture.md).
    func due(now: Double) {
        let all = sessions
        all.withUnsafeBufferPointer { ss in
            for i in ss.indices {
                let status = Borrowed(ss[i]).with { s -> SourceStatus in
                    guard let w = s.wakeTime, w <= now else { return .open }
                    var status = SourceStatus.open
                    with(s) { s, out in status = s.wake(now: now, into: &out) }
                    return status
                }
                if status == .gone { close(ss[i], lost: false) }
            }
        }
    }

    /// The earliest time a session needs waking, kept by `refreshDeadline`: the service reads it
    /// after every wakeup, not computing it there (speed: docs/architecture.md).
    private(set) var deadline: Double?

    private func refreshDeadline() {
        var t = Double.infinity
        for s in sessions { if let w = s.wakeTime, w < t { t = w } }
        deadline = t < .infinity ? t : nil
    }

    /// Every session rebuilt from a new config, its gestures in flight cancelled first.
    func rebuild(config fresh: DaemonConfig, now: Double) {
        config = fresh
        for s in sessions { with(s) { s, out in s.rebuild(config: fresh, now: now, into: &out) } }
    }

    /// Shutdown: what is in flight is cancelled.
    func cancelAll(now: Double) {
        for s in sessions { with(s) { s, out in s.cancel(now: now, into: &out) } }
    }
}
