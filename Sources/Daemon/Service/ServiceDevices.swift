import Evdev
import GestureKit
import Logging

/// The service's devices, one source each: the `--replay` recordings, and the live devices
/// udev reports (enumerated at start, followed through hotplug, one source per node).
extension GestureService {
    /// The `--replay` recordings, started at once unless `--hold-replay`.
    func openRecordings(now: Double) throws {
        for path in options.replays {
            let recording = try Recording.load(path: path)
            let source = RecordingSource(recording: recording, config: config, fast: options.fast, log: log)
            if !options.holdReplay { source.start(now: now) }
            source.touchDown = { [unowned self] in self.touchDown() }
            recordings.append(source)
            sources.append(source)
            applyMode(to: source, now: now)
            fleet?.device(source.label, added: true)
        }
    }

    func startLiveDevices() {
        let monitor = DeviceMonitor()
        liveMonitor = monitor
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
        guard let monitor = liveMonitor else { return }
        for change in monitor.receive() {
            switch change {
            case .added(let candidate): open(candidate)
            case .removed(let devnode):
                if let s = sources.first(where: { ($0 as? LiveDeviceSource)?.device.devnode == devnode }) as? LiveDeviceSource {
                    close(s, lost: true)
                }
            }
        }
    }

    private func open(_ candidate: DeviceCandidate) {
        guard !sources.contains(where: { ($0 as? LiveDeviceSource)?.device.devnode == candidate.devnode }) else { return }
        do {
            var device = try EvdevDevice(devnode: candidate.devnode, properties: candidate.properties)
            if PipelineFactory.wantsGrab(device.info, config: config) {
                // Grab decided from the matching config section, which needs the device's identity.
                device = try EvdevDevice(devnode: candidate.devnode, properties: candidate.properties, grab: true)
            }
            let source = LiveDeviceSource(device: device, config: config, log: log)
            try loop.add(device.fd) { [unowned self, unowned source] _ in
                if source.readable(emit: { self.deliver($0, from: source) }) == .gone { self.close(source, lost: false) }
            }
            let fd = device.fd
            source.watch = { [unowned self] on in self.loop.modify(fd, events: on ? EventLoop.readable : 0) }
            source.touchDown = { [unowned self] in self.touchDown() }
            sources.append(source)
            applyMode(to: source, now: MonotonicClock.now())
            fleet?.device(source.label, added: true)
            announceToFleet()
            log.info("opened \(device.info.name) at \(candidate.devnode)\(device.isGrabbed ? " (grabbed)" : "")")
        } catch {
            log.warning("cannot open \(candidate.devnode): \(error)")
        }
    }

    /// Closes a device's source; `lost`: its gestures are cancelled first (hot-unplug).
    func close(_ source: LiveDeviceSource, lost: Bool) {
        if lost { source.cancel(now: MonotonicClock.now()) { self.deliver($0, from: source) } }
        loop.remove(source.device.fd)
        source.close()
        sources.removeAll { $0 === source }
        fleet?.device(source.label, added: false)
        announceToFleet()
    }
}
