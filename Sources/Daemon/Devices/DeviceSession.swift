import Evdev
import GestureKit
import Logging

/// Asked at the first touch of each sequence on any device: true when the app gets none of that
/// sequence (it woke a dark screen). The modes answer (ModeControl).
protocol TouchGate: AnyObject {
    func touchDown() -> Bool
}

/// Whether a session can still be read after a read or a wake-up.
enum SourceStatus { case open, gone }

/// One device the daemon runs gestures for, live or recorded: the device, its settings resolved
/// once per config, and its pipeline, with passthrough as the stage after the arena. Every
/// entry point appends the gestures it produced to the caller's buffer and returns; the service
/// hands them to the sinks.
///
/// A live device is read when its fd is readable, in batches so one busy device cannot starve the
/// others. SYN_DROPPED resyncs it (DevicePipeline.dropped); an unplug cancels its gestures and
/// nothing else. With `passthrough`, the app reads its clone, made when the config asks for it
/// and removed when a reload turns it off.
///
/// Coalescing (`read_interval_ms`, off by default): the daemon wakes once per frame a device
/// sends, and each wakeup costs kernel time (epoll, the read, the scheduler) whatever the frame
/// holds. With an interval, once a read leaves fingers down the device's fd leaves epoll and is
/// read again by the timer, `interval` after that read: every frame that arrived meanwhile comes
/// in that one read, each with its own kernel time, so recognizers see the same frames, later. A
/// read that finds nothing (the fingers rest) or leaves no finger down puts the fd back in epoll,
/// so resting and idle cost no wakeup. The price is up to `interval` of latency on every gesture
/// and on what passthrough forwards to the app.
final class DeviceSession: FrameStage, LoopSource {
    enum Input {
        case live(EvdevDevice)
        case recording(RecordingPlayer)
    }

    let input: Input
    /// The live device of `input`, for the read path (EvdevDevice.read without a retain).
    private let liveDevice: Borrowed<EvdevDevice>?
    /// The recording of `input`, for the timer's `wake` (RecordingPlayer.wake without a retain).
    private let replay: Borrowed<RecordingPlayer>?
    let info: DeviceInfo
    private(set) var pipeline: DevicePipeline {
        didSet { judgeFrames(); countConditioning() }
    }
    private(set) var passthrough: Passthrough? {
        didSet { judgeFrames() }
    }
    /// This device's settings from the config's sections, resolved once per config.
    private(set) var settings: DeviceSettings
    /// Recognizers switched off on this device (a client's `disable`, Home Assistant's switch);
    /// they stay off across reloads. A recognizer runs when its switch is on and the mode runs
    /// it: the switches are the clients', the mode the service's, and neither writes the other.
    var disabled: Set<String> = []
    /// The modes and the registry, which the service owns for longer than any session. Not weak:
    /// an object that ever had a weak reference gets a side table, and every retain and release
    /// of it then takes the runtime's slow path (docs/performance.md, "Instructions per frame").
    unowned(unsafe) var gate: TouchGate?
    /// Reads a live device when the loop finds it readable (the wakeup's buffer is the registry's);
    /// hears of the conditioning counts (live devices and recordings).
    unowned(unsafe) var registry: DeviceRegistry?
    /// The loop a live device's fd is in, once attached.
    private var loop: EventLoop?
    /// The continuous gestures whose `changed` events some sink can take (the service's
    /// listeners); the others' are not built (GestureArena.reportChanges). Kept across rebuilds.
    var heardChanges = Set(GestureKind.allCases) {
        didSet { reportHeardChanges() }
    }
    private let log: Logger
    /// `map_clone`: the clone's udev properties are checked at the first read after it was made
    /// (udev has long run its rules by then). Set, a matrix udev gives the clone too.
    private var cloneCheckDue = false
    private(set) var cloneMatrixTwice: String?
    /// The pipeline quarantines ghosts or rejects palms by size: after each read its counts are
    /// compared with `told`, what the registry last heard of this pipeline (ConditioningCount).
    private var counting = false
    private var told = ConditioningCount()
    /// Seconds; 0: the device is read whenever it is readable.
    private var readInterval = 0.0
    /// While coalescing: when the timer reads the device next (its fd is out of epoll until then).
    private var resumeAt: Double?
    /// How late its gestures reach the sinks, its keys and commands run; kept across reloads,
    /// for as long as the device is open (the clone's: its Passthrough's, since it was made).
    private var measured = DeviceLatency()

    /// Opens a session on a live device, grabbing it when its settings ask.
    init(device: EvdevDevice, config: DaemonConfig, log: Logger) throws(DeviceError) {
        input = .live(device)
        liveDevice = Borrowed(device)
        replay = nil
        info = device.info
        self.log = log
        let (s, sections) = config.settings(for: device.info.identity)
        settings = s
        if PipelineFactory.wantsGrab(s) { try device.setGrabbed(true) }
        readInterval = (s.readIntervalMS ?? 0) / 1000
        pipeline = PipelineFactory.make(info: info, settings: s, sections: sections, config: config, disabled: [],
                                        initialSlots: device.slotSnapshot(), log: log)
        pipeline.stage = self
        judgeFrames()
        countConditioning()
        configurePassthrough(config)
    }

    init(recording: Recording, fast: Bool, config: DaemonConfig, log: Logger) {
        let player = RecordingPlayer(recording: recording, fast: fast)
        input = .recording(player)
        liveDevice = nil
        replay = Borrowed(player)
        info = recording.info
        self.log = log
        let (s, sections) = config.settings(for: recording.info.identity)
        settings = s
        pipeline = PipelineFactory.make(info: info, settings: s, sections: sections, config: config, disabled: [], log: log)
        pipeline.stage = self
        judgeFrames()
        countConditioning()
    }

    var label: DeviceLabel { pipeline.label }

    /// A live device: its times are the kernel's (CLOCK_MONOTONIC), its latency measured.
    var isLive: Bool { liveDevice != nil }

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
        guard case .live(let device) = input, let registry else { return }
        // Unretained: the registry (the service's for longer than any session) holds the session
        // until `close`, which removes this handler; an unowned capture and the registry read at
        // each wakeup cost 4 retains and 3 releases.
        let session = Borrowed(self), owner = Borrowed(registry)
        try loop.add(device.fd) { _ in owner.with { r in session.with { r.readable($0) } } }
        self.loop = loop
    }

    /// The live device's node; nil for a recording.
    var devnode: String? {
        if case .live(let d) = input { return d.devnode }
        return nil
    }

    var player: RecordingPlayer? {
        if case .recording(let p) = input { return p }
        return nil
    }

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

    // MARK: the stage after the arena

    func judged(_ frame: borrowing TouchFrame, startsSequence: Bool, arena: GestureArena) {
        if startsSequence, gate?.touchDown() == true { passthrough?.withholdSequence() }
        passthrough?.judged(frame, startsSequence: startsSequence, arena: arena)
    }

    func dropped() {
        passthrough?.dropped()
    }

    func judgedBeforeArena(_ frame: borrowing TouchFrame) -> Bool {
        passthrough?.judgedBeforeArena(frame) ?? false
    }

    func arenaJudged(_ arena: GestureArena) {
        passthrough?.arenaJudged(arena)
    }

    /// Without passthrough a frame matters here only when it starts a sequence (`judged`).
    private func judgeFrames() {
        pipeline.stageSeesEveryFrame = passthrough != nil
    }

    // MARK: wakeups

    /// Reads until the kernel's queue is empty. The clock is read only when a device is lost:
    /// events carry their own kernel time, and a wakeup should cost no system call but the read.
    /// `now`: the clock, when the caller has read it (the timer's coalesced read); coalescing
    /// counts the interval from it, else from the last event read (the wakeup it caused).
    func readable(now: Double? = nil, into out: inout [GestureEvent]) -> SourceStatus {
        // Unretained: the session owns its device (`input`, a `let`) and, for the whole call, its
        // pipeline (only a reload replaces it, never while a read is fed); retaining the three
        // cost 3 retains and 3 releases a wakeup.
        guard let device = liveDevice else { return .open }
        return device.with { device in
            Borrowed(pipeline).with { pipeline in
                var lastEvent: Double?
                while true {
                    let (events, outcome) = device.read()
                    if !events.isEmpty {
                        if readInterval > 0 { lastEvent = events[events.count - 1].time }
                        if passthrough == nil {
                            pipeline.feed(events) { out.append($0) }
                        } else {
                            passThrough(events, pipeline: pipeline, into: &out)
                        }
                    }
                    switch outcome {
                    case .more:
                        continue
                    case .wouldBlock:
                        if readInterval > 0 { coalesce(after: lastEvent.map { now ?? $0 }) }
                        if counting { conditioned(pipeline) }
                        if cloneCheckDue { checkCloneCalibration() }
                        return .open
                    case .dropped, .unplugged, .failed:
                        if let status = interrupted(outcome, device: device, pipeline: pipeline, into: &out) { return status }
                    }
                }
            }
        }
    }

    /// A read that did not end by draining the queue: SYN_DROPPED (resynchronized; nil, reading
    /// goes on) or the device gone. Out of line: its logging would cost every wakeup a larger frame.
    @inline(never)
    private func interrupted(_ outcome: ReadOutcome, device: EvdevDevice, pipeline: DevicePipeline,
                             into out: inout [GestureEvent]) -> SourceStatus? {
        switch outcome {
        case .dropped(let time):
            log.warning("\(info.name): events dropped by the kernel (SYN_DROPPED), resynchronized; gestures in flight cancelled")
            pipeline.dropped(time: time, slots: device.slotSnapshot()) { out.append($0) }
            if let error = passthrough?.flush() { writeFailed(error) }
            return nil
        case .unplugged:
            log.info("\(info.name) (\(device.devnode)) unplugged")
        case .failed(let e):
            log.error("\(info.name) (\(device.devnode)): read failed (errno \(e)), closing it")
        case .more, .wouldBlock:
            return nil
        }
        pipeline.deviceLost(time: MonotonicClock.now()) { out.append($0) }
        return .gone
    }

    /// A read fed with passthrough on: the clone takes every event of a frame before the pipeline
    /// takes the frame, and writes the app's frame at its SYN_REPORT. Out of line: inlined, its logging
    /// made every wakeup's `readable` set up a larger frame (~8 instructions) with passthrough off.
    @inline(never)
    private func passThrough(_ events: EventBatch, pipeline: DevicePipeline, into out: inout [GestureEvent]) {
        guard let p = passthrough else { return }
        var start = 0
        for i in events.indices {
            let e = events[i]
            p.record(e)
            guard e.type == EV.SYN && e.code == SYN.REPORT || i == events.endIndex - 1 else { continue }
            pipeline.feed(events[batch: start..<i + 1]) { out.append($0) }
            start = i + 1
            if let error = p.endOfEvent(e) { writeFailed(error) }
        }
    }

    /// Leaves the fd out of epoll until `interval` after `read` (when events came and fingers are
    /// still down); otherwise puts it back. Only with an interval.
    private func coalesce(after read: Double?) {
        if let t = read, pipeline.tracker.downCount > 0 {
            if resumeAt == nil { watch(false) }
            resumeAt = t + readInterval
        } else if resumeAt != nil {
            resumeAt = nil
            watch(true)
        }
    }

    private func watch(_ readable: Bool) {
        guard case .live(let device) = input else { return }
        loop?.modify(device.fd, events: readable ? EventLoop.readable : 0)
    }

    /// When the session next needs `wake` (monotonic seconds), or nil: recognizer timeouts, the
    /// coalesced read (kernel times are CLOCK_MONOTONIC, the timer's clock), a recording's next event.
    /// Inlined: the registry reads it after every wakeup, and the call cost ~10 of its 19 instructions.
    @inline(__always)
    var wakeTime: Double? {
        if let p = player { return p.wakeTime(deadline: pipeline.deadline) }
        guard let r = resumeAt else { return pipeline.deadline }
        return min(r, pipeline.deadline ?? r)
    }

    /// `.gone`: the device went away while it was read (a live device is read here first);
    /// the service closes it.
    func wake(now: Double, into out: inout [GestureEvent]) -> SourceStatus {
        if let replay {
            // Unretained, as in `readable`: only a reload replaces the pipeline, never during a
            // wake; the player is the session's (`input`). Retaining it cost ~40 instructions a wake.
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
        if let error = passthrough?.settle(arena: pipeline.arena) { writeFailed(error) }
        return .open
    }

    // MARK: config, modes, closing

    /// A new pipeline from a new config: in-flight gestures are cancelled first.
    func rebuild(config: DaemonConfig, now: Double, into out: inout [GestureEvent]) {
        cancel(now: now, into: &out)
        pipeline.stage = nil
        let (s, sections) = config.settings(for: info.identity)
        settings = s
        switch input {
        case .live(let device):
            readInterval = (s.readIntervalMS ?? 0) / 1000
            if resumeAt != nil {
                resumeAt = nil
                watch(true)
            }
            pipeline = PipelineFactory.make(info: info, settings: s, sections: sections, config: config, disabled: disabled,
                                            initialSlots: device.slotSnapshot(), log: log)
            pipeline.stage = self
            configurePassthrough(config)
        case .recording:
            pipeline = PipelineFactory.make(info: info, settings: s, sections: sections, config: config, disabled: disabled, log: log)
            pipeline.stage = self
        }
        reportHeardChanges()
    }

    private func reportHeardChanges() {
        for kind in GestureKind.allCases where kind.isContinuous {
            pipeline.arena.reportChanges(of: kind, heardChanges.contains(kind))
        }
    }

    /// Cancels what is in flight (reload, shutdown, unplug).
    func cancel(now: Double, into out: inout [GestureEvent]) {
        let time = player.map { $0.recordingTime(now: now) } ?? now
        pipeline.deviceLost(time: time) { out.append($0) }
        passthrough?.cancelForApp()
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

    /// The device is closed (unplug, shutdown): its fd leaves the loop, its clone goes with it.
    func close() {
        if case .live(let device) = input { loop?.remove(device.fd) }
        loop = nil
        pipeline.stage = nil
        passthrough?.end()
        passthrough = nil
    }

    /// Makes, keeps (with new rules) or removes the clone as the config says; the device stays
    /// open throughout, grabbed while it is passed through or `grab` asks for it.
    private func configurePassthrough(_ config: DaemonConfig) {
        guard case .live(let device) = input else { return }
        let name = info.name
        guard let rules = PipelineFactory.passthroughRules(settings, info: info, config: config) else {
            if let p = passthrough {
                p.end()
                passthrough = nil
                log.info("\(name): passthrough off, clone \(p.clone.devnode) removed")
            }
            setGrab(device, PipelineFactory.wantsGrab(settings))
            return
        }
        let mapTo = cloneTransform()
        if let p = passthrough, p.clone.mappedWith == mapTo {
            p.restart(rules: rules)
            return
        }
        if let p = passthrough {
            // The clone's axes change with its mapping: a new clone replaces it.
            p.end()
            passthrough = nil
        }
        if let reason = PipelineFactory.passthroughUnsupported(info) {
            log.error("\(name): \(reason); not passed through")
            setGrab(device, settings.grab ?? false)
            return
        }
        do {
            try device.setGrabbed(true)
            let clone = try TouchClone(of: device, mapTo: mapTo)
            passthrough = Passthrough(clone: clone, rules: rules)
            cloneCheckDue = mapTo != nil
            cloneMatrixTwice = nil
            log.info("\(name): passed through to \(clone.devnode) (\(clone.name))\(mapTo.map { " in screen coordinates (map_clone: rotation \($0.rotation.rawValue)°\($0.isIdentityCalibration ? "" : ", calibrated"))" } ?? "")")
        } catch {
            log.error("\(name): passthrough failed, the app keeps the device: \(error)")
            setGrab(device, settings.grab ?? false)
        }
    }

    /// `map_clone`: the transform the clone applies (the pipeline's: rotation, calibration from
    /// the config or the device's udev matrix), else nil.
    private func cloneTransform() -> CoordinateTransform? {
        guard settings.mapClone == true else { return nil }
        var t = PipelineFactory.transform(info: info, settings: settings, log: log)
        t.sizeMMOverride = nil  // sizes do not change where a touch is on the screen
        return t
    }

    /// What `status` says of the device's touch conditioning.
    var conditioning: TouchConditioning {
        TouchConditioning(mapClone: passthrough?.clone.mappedWith != nil, cloneMatrixTwice: cloneMatrixTwice,
                          appFingers: passthrough?.relay.rules.appFingers, palm: pipeline.tracker.palm,
                          palms: pipeline.tracker.palm.map { _ in pipeline.tracker.palmsRejected }, ghosts: pipeline.quarantine?.ghosts,
                          ghostPatterns: pipeline.quarantine?.patterns ?? [])
    }

    /// The rule for LIBINPUT_CALIBRATION_MATRIX with `map_clone`: gestured applies the device's
    /// calibration (the config's, else the real device's udev matrix) in the clone, so the clone
    /// must carry no matrix of its own — libinput would apply it a second time. A udev rule that
    /// gives the clone one (the rule docs/arbitration.md shows for clones without map_clone) is
    /// an error in the log and in `status` (`clone_calibration_twice`).
    @inline(never)
    private func checkCloneCalibration() {
        cloneCheckDue = false
        guard let clone = passthrough?.clone, let m = UdevProperty.value("LIBINPUT_CALIBRATION_MATRIX", devnode: clone.devnode),
              (try? CoordinateTransform.parseCalibrationMatrix(m)) != CoordinateTransform.identityMatrix else { return }
        cloneMatrixTwice = m
        log.error("\(info.name): udev gives the clone \(clone.devnode) LIBINPUT_CALIBRATION_MATRIX=\"\(m)\", but map_clone already maps it: libinput applies the matrix a second time. Remove the udev rule for \"\(clone.name)\" (the real device's matrix is applied by gestured), or set map_clone = false")
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
        registry?.counted(now - told)
        told = now
    }

    private func setGrab(_ device: EvdevDevice, _ on: Bool) {
        do { try device.setGrabbed(on) } catch { log.error("\(info.name): \(error)") }
    }

    private func writeFailed(_ e: DeviceError) {
        log.error("\(info.name): cannot write to its clone: \(e)")
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
