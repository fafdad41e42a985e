import Evdev
import GestureKit
import Logging

/// Whether a session can still be read after a read or a wake-up.
enum SourceStatus { case open, gone }

/// One device the daemon runs gestures for, live or recorded, and the few owners it is made of:
/// what it reads (DeviceInput), how a live device is read (DeviceReader: batches, coalescing,
/// SYN_DROPPED), the clone and the grab (PassthroughControl), and its pipeline with the device's
/// settings, resolved once per config. Its pipeline's stage is the clone (Passthrough) and its
/// gate the modes (TouchGate), set whenever either changes. Every entry point appends the
/// gestures it produced to the caller's buffer and returns; the service hands them to the sinks.
/// An unplug cancels the device's gestures and nothing else. The loop reaches a live session
/// through SessionWakeup.
final class DeviceSession: LoopSource {
    let input: DeviceInput
    /// A live device's reads; nil for a recording.
    private var reader: DeviceReader?
    let info: DeviceInfo
    private(set) var pipeline: DevicePipeline {
        didSet { hook(); countConditioning() }
    }
    /// A live device's clone and grab.
    private var control = PassthroughControl()
    /// The clone, when the device is passed through: the pipeline's stage.
    var passthrough: Passthrough? { control.passthrough }
    /// This device's settings from the config's sections, resolved once per config.
    private(set) var settings: DeviceSettings
    /// Recognizers switched off on this device (a client's `disable`, Home Assistant's switch);
    /// they stay off across reloads. A recognizer runs when its switch is on and the mode runs
    /// it: the switches are the clients', the mode the service's, and neither writes the other.
    var disabled: Set<String> = []
    /// The modes and the registry, which the service owns for longer than any session. Not weak:
    /// an object that ever had a weak reference gets a side table, and every retain and release
    /// of it then takes the runtime's slow path (speed: docs/architecture.md).
    var gate: Borrowed<TouchGate>? {
        didSet { hook() }
    }
    /// Reads a live device when the loop finds it readable (the wakeup's buffer is the registry's);
    /// hears of the conditioning counts (live devices and recordings).
    var registry: Borrowed<DeviceRegistry>?
    /// The continuous gestures whose `changed` events some sink can take (the service's
    /// listeners); the others' are not built (GestureArena.reportChanges). Kept across rebuilds.
    var heardChanges = Set(GestureKind.allCases) {
        didSet { reportHeardChanges() }
    }
    private let log: Logger
    /// The pipeline quarantines ghosts or rejects palms by size: after each read its counts are
    /// compared with `told`, what the registry last heard of this pipeline (ConditioningCount).
    private var counting = false
    private var told = ConditioningCount()
    /// How late its gestures reach the sinks, its keys and commands run; kept across reloads,
    /// for as long as the device is open (the clone's: its Passthrough's, since it was made).
    private var measured = DeviceLatency()

    /// Where the clone waits when the panel goes, and where a panel opening finds its own
    /// (the registry's, which outlives every session).
    private let keeper: Borrowed<CloneKeeper>?

    /// Opens a session on a live device, grabbing it when its settings ask; `keeper`: the clones
    /// waiting for their panel's return (KeptClones), nil: a clone goes with its panel.
    init(device: EvdevDevice, config: DaemonConfig, keeper: CloneKeeper? = nil, log: Logger) throws(DeviceError) {
        input = DeviceInput(device)
        self.keeper = keeper.map(Borrowed.init)
        info = device.info
        self.log = log
        let (s, sections) = config.settings(for: device.info.identity)
        settings = s
        if PipelineFactory.wantsGrab(s) { try device.setGrabbed(true) }
        reader = DeviceReader(input, interval: (s.readIntervalMS ?? 0) / 1000, log: log)
        pipeline = PipelineFactory.make(info: info, settings: s, sections: sections, config: config, disabled: [],
                                        initialSlots: device.slotSnapshot(), log: log)
        hook()
        countConditioning()
        configurePassthrough(device, config)
    }

    init(recording: Recording, fast: Bool, config: DaemonConfig, log: Logger) {
        let player = RecordingPlayer(recording: recording, fast: fast)
        input = DeviceInput(player)
        keeper = nil
        info = recording.info
        self.log = log
        let (s, sections) = config.settings(for: recording.info.identity)
        settings = s
        pipeline = PipelineFactory.make(info: info, settings: s, sections: sections, config: config, disabled: [], log: log)
        hook()
        countConditioning()
    }

    var label: DeviceLabel { pipeline.label }

    /// A live device: its times are the kernel's (CLOCK_MONOTONIC), its latency measured.
    var isLive: Bool { input.liveDevice != nil }

    /// Its latencies (`status`, `doctor`): the clone's from its Passthrough, the others' here.
    var latency: DeviceLatency {
        var l = measured
        if let p = passthrough { l.clone = p.latency }
        return l
    }

    func record(_ path: DeviceLatency.Path, seconds: Double) {
        measured.record(path, seconds: seconds)
    }

    /// A live device's fd joins the loop; it leaves at `close`. A recording has none (the timer plays it).
    /// The registry reads it (`registry`, set before attaching; a session without one is not
    /// attached).
    func attach(to loop: EventLoop) throws {
        guard let registry else { return }
        try reader?.attach(to: loop, wakeup: SessionWakeup(self, registry: registry.retained()))
    }

    /// The live device's node; nil for a recording.
    var devnode: String? { input.device?.devnode }

    var player: RecordingPlayer? { input.player }

    /// Each recognizer the device has, and whether it runs now: its switch and the mode (`status`).
    var recognizers: [(name: String, enabled: Bool)] {
        let arena = pipeline.arena
        return arena.recognizers.map { ($0.name, arena.isEnabled($0.name)) }
    }

    /// Each recognizer's switch, whatever the mode (Home Assistant's switches): a mode that does
    /// not run a recognizer does not turn its switch off, and turning it on is kept for the modes
    /// that run it.
    var switches: [(name: String, enabled: Bool)] {
        pipeline.arena.recognizers.map { ($0.name, !disabled.contains($0.name)) }
    }

    // MARK: the pipeline's hooks

    /// The pipeline's stage is the clone when there is one, its gate the modes.
    private func hook() {
        pipeline.stage = passthrough
        pipeline.gate = gate
    }

    // MARK: wakeups

    /// A live device is readable: DeviceReader.read, then what a drained read is followed by
    /// (the conditioning counts, the clone's calibration check). `now`: the timer's clock, when it
    /// reads (a coalesced read, or what the kernel queued before a deadline).
    /// Inlined into the registry's `readable`, as it was before the reader was its own type: the
    /// call cost every wakeup a frame of its own.
    @inline(__always)
    func readable(now: Double? = nil, into out: inout [GestureEvent]) -> SourceStatus {
        guard reader != nil else { return .open }
        // Unretained: for the whole call the session owns its pipeline (only a reload replaces
        // it, never while a read is fed); retaining it cost a retain and a release a wakeup.
        return Borrowed(pipeline).with { pipeline in
            let status = reader!.read(into: pipeline, clone: passthrough.map { Borrowed($0) }, now: now, out: &out)
            guard status == .open else { return status }
            if counting { conditioned(pipeline) }
            if control.checkDue { control.checkCalibration(name: info.name, log: log) }
            return .open
        }
    }

    /// When the session next needs `wake` (monotonic seconds), or nil: recognizer timeouts, the
    /// coalesced read (kernel times are CLOCK_MONOTONIC, the timer's clock), a recording's next event.
    /// Inlined: the registry reads it after every wakeup (speed: docs/architecture.md).
    @inline(__always)
    var wakeTime: Double? {
        if let p = player { return p.wakeTime(deadline: pipeline.deadline) }
        var t = pipeline.deadline
        // The relay's lingering touches lift on time (TouchRelay.deadline).
        if let d = passthrough?.deadline { t = min(d, t ?? d) }
        guard let r = reader?.resumeAt else { return t }
        return min(r, t ?? r)
    }

    /// `.gone`: the device went away while it was read (a live device is read here first);
    /// the service closes it.
    func wake(now: Double, into out: inout [GestureEvent]) -> SourceStatus {
        if let replay = input.replay {
            // Unretained, as in `readable`: only a reload replaces the pipeline, never during a
            // wake; the player is the session's (`input`) (speed: docs/architecture.md).
            replay.with { p in
                Borrowed(pipeline).with { p.wake(now: now, pipeline: $0, into: &out, log: log) }
            }
            if counting { conditioned(pipeline) }
            return .open
        }
        // What the kernel queued before `now` is judged before `now` is: a daemon starved of CPU
        // wakes with its timer and its device both ready, and a recognizer's deadline must not
        // fire ahead of frames that came before it (a three-finger tap whose lift was still
        // unread would fail as held too long; scenario 50 saw multi-finger taps recognize nothing
        // at host load 15, with the panel's timing kept). Frames fire their own
        // deadlines at their own times as they are fed. This also ends a coalesced read's wait.
        if readable(now: now, into: &out) == .gone { return .gone }
        pipeline.tick(now: now) { out.append($0) }
        if let error = passthrough?.settle(arena: pipeline.arena, now: now) { writeFailed(error) }
        return .open
    }

    // MARK: config, modes, closing

    /// A new pipeline from a new config: in-flight gestures are cancelled first.
    func rebuild(config: DaemonConfig, now: Double, into out: inout [GestureEvent]) {
        cancel(now: now, into: &out)
        let (s, sections) = config.settings(for: info.identity)
        settings = s
        switch input.source {
        case .live(let device):
            reader?.setInterval((s.readIntervalMS ?? 0) / 1000)
            pipeline = PipelineFactory.make(info: info, settings: s, sections: sections, config: config, disabled: disabled,
                                            initialSlots: device.slotSnapshot(), log: log)
            configurePassthrough(device, config)
        case .recording:
            pipeline = PipelineFactory.make(info: info, settings: s, sections: sections, config: config, disabled: disabled, log: log)
        }
        reportHeardChanges()
    }

    private func reportHeardChanges() {
        for kind in GestureKind.allCases where kind.isContinuous {
            pipeline.arena.reportChanges(of: kind, heardChanges.contains(kind))
        }
    }

    /// Cancels what is in flight (reload, shutdown, unplug); `panelGone` (unplug): the app's
    /// touches end as taken ones do, never as a tap (Passthrough.panelGone).
    func cancel(now: Double, panelGone: Bool = false, into out: inout [GestureEvent]) {
        let time = player.map { $0.recordingTime(now: now) } ?? now
        pipeline.deviceLost(time: time) { out.append($0) }
        if panelGone { passthrough?.panelGone() } else { passthrough?.cancelForApp() }
    }

    /// A mode's recognizers (within the device's own, minus those a client disabled) and what the
    /// app gets.
    func apply(_ mode: KioskMode, now: Double, into out: inout [GestureEvent]) {
        let arena = pipeline.arena
        for r in arena.recognizers {
            let on = mode.runs(r.name) && !disabled.contains(r.name)
            if arena.isEnabled(r.name) != on { arena.setEnabled(r.name, on, time: now) { out.append($0) } }
        }
        passthrough?.setAppTouches(mode.appGetsTouches)
    }

    /// The device is closed (unplug): its fd leaves the loop, the app's touches end, and its
    /// clone waits for its return (CloneKeeper).
    func close() {
        reader?.detach()
        pipeline.stage = nil
        control.end(keeper: keeper?.retained(), name: info.name)
    }

    /// The clone as the config says (PassthroughControl), the pipeline's stage while there is one.
    private func configurePassthrough(_ device: EvdevDevice, _ config: DaemonConfig) {
        control.configure(device, info: info, settings: settings, config: config, keeper: keeper?.retained(), log: log)
        hook()
    }

    /// What `status` says of the device's touch conditioning.
    var conditioning: TouchConditioning {
        TouchConditioning(mapClone: passthrough?.clone.mappedWith != nil, cloneMatrixTwice: control.matrixTwice,
                          appFingers: passthrough?.relay.rules.appFingers, palm: pipeline.tracker.palm,
                          palms: pipeline.tracker.palm.map { _ in pipeline.tracker.palmsRejected }, ghosts: pipeline.quarantine?.ghosts,
                          ghostPatterns: pipeline.quarantine?.patterns ?? [])
    }

    var quarantinesGhosts: Bool { pipeline.quarantine != nil }
    var rejectsPalms: Bool { pipeline.tracker.palm != nil }

    private func countConditioning() {
        counting = quarantinesGhosts || rejectsPalms
        told = ConditioningCount()
    }

    /// After a read: logs the ghost quarantine's news (a line per pattern, not per ghost) and
    /// tells the registry the ghosts and palms counted since it last heard (nothing when none).
    @inline(never)
    private func conditioned(_ pipeline: DevicePipeline) {
        if pipeline.quarantine?.news.isEmpty == false, let q = pipeline.quarantine {
            for n in q.news { log.warning("\(info.name): \(TouchConditioning.line(n, q.patterns))") }
            pipeline.quarantine?.clearNews()
        }
        let now = ConditioningCount(ghosts: pipeline.quarantine?.ghosts ?? 0,
                                    palms: pipeline.tracker.palm != nil ? pipeline.tracker.palmsRejected : 0)
        guard now != told else { return }
        registry?.with { $0.counted(now - told) }
        told = now
    }

    private func writeFailed(_ e: DeviceError) {
        DeviceReader.writeFailed(e, name: info.name, log: log)
    }
}

extension DeviceInfo {
    /// What the config matches a device on.
    var identity: DeviceIdentity {
        let kind: DeviceKindName? = switch self.kind {
        case .touchscreen: .touchscreen
        case .touchpad: .touchpad
        case .other: nil
        }
        return DeviceIdentity(name: name, id: id, vendor: vendor, product: product, kind: kind, properties: properties)
    }
}
