import Evdev
import GestureKit
import Logging

/// Builds a device's pipeline from its settings (the config sections that match it, resolved
/// once by its DeviceSession): transform (rotation, calibration from config or udev, size_mm) and
/// an arena of the selected recognizers.
public enum PipelineFactory {
    /// Whether the settings ask for an exclusive grab of the device.
    static func wantsGrab(_ s: DeviceSettings) -> Bool {
        (s.grab ?? false) || (s.passthrough ?? false)
    }

    /// The relay's rules when the config passes this device through, else nil. "edges" is the
    /// edge swipe's band: as deep as its `depth_mm` on this device. The regions of `[[sequence]]`
    /// steps are delay regions on every passed-through device.
    static func passthroughRules(_ s: DeviceSettings, info: DeviceInfo, config: DaemonConfig) -> TouchRelay.Rules? {
        guard s.passthrough == true else { return nil }
        var rules = TouchRelay.Rules(cancelsTouches: s.cancelsTouches ?? true, ending: s.takenTouchEnd ?? .lift,
                                     delayFingers: s.delayFingers)
        rules.appFingers = s.appFingers
        if info.sizeMM.width > 0 {
            rules.rawX = .init(centre: (Double(info.x.minimum) + Double(info.x.maximum)) / 2,
                               unitsPerMM: Double(info.x.maximum - info.x.minimum) / info.sizeMM.width)
        }
        // The secret sequences' regions are delayed too: their taps must not press what is under them.
        for name in Set((s.delayRegions ?? []) + config.modes.sequences.flatMap(\.regions)).sorted() {
            if name == "edges" {
                rules.edgeDepthMM = EdgeSwipeRules(values: s.parameters[EdgeSwipeRecognizer.kind.rawValue] ?? [:]).depthMM
            } else if let r = config.regions.first(where: { $0.name == name }) {
                rules.delayRects.append(r.rect)
            }
        }
        return rules
    }

    /// Why this device cannot be passed through, or nil when it can: the clone mirrors slots
    /// (protocol B) and cancels a touch it has passed on with that slot's ABS_MT_TOOL_TYPE =
    /// MT_TOOL_PALM, which a single-touch or protocol-A device has no slot to express.
    static func passthroughUnsupported(_ info: DeviceInfo) -> String? {
        switch info.touchProtocol {
        case .multitouchB: nil
        case .multitouchA: "passthrough needs a multitouch device with slots (protocol B); this one is protocol A (no ABS_MT_SLOT), whose touches the clone cannot cancel"
        case .singleTouch: "passthrough needs a multitouch device with slots (protocol B); this one is single-touch (ABS_X/ABS_Y, no ABS_MT_*), whose touches the clone cannot cancel"
        }
    }

    /// What `check-config --device` says of a device the config passes through and that cannot
    /// be (nil when the config does not pass it through, or it can be).
    public static func passthroughRefusal(info: DeviceInfo, config: DaemonConfig) -> String? {
        guard passthroughRules(config.settings(for: info.identity).settings, info: info, config: config) != nil else { return nil }
        return passthroughUnsupported(info)
    }

    /// Whether the daemon passes this device through: udev's rule (`gestured udev-passthrough`)
    /// then hides its node from libinput, so that no compositor reads it while gestured is down.
    public static func passesThrough(info: DeviceInfo, config: DaemonConfig) -> Bool {
        passthroughRules(config.settings(for: info.identity).settings, info: info, config: config) != nil
            && passthroughUnsupported(info) == nil
    }

    static func make(info: DeviceInfo, settings s: DeviceSettings, sections: [Int], config: DaemonConfig, disabled: Set<String>,
                     initialSlots: [SlotSnapshot] = [], log: Logger) -> DevicePipeline {
        let transform = transform(info: info, settings: s, log: log)
        let arena = ArenaRulesBuilder.arena(for: s, regions: config.regions, shapes: config.shapes.shapes)
        for name in disabled { arena.setEnabled(name, false) }
        let device = info.name
        arena.impossibleTransitionObserver = { t in
            log.error("\(device): arena bug: \(t.recognizer) cannot \(t.event) when \(t.from.rawValue) (at \(t.time)); the move was ignored")
        }
        if log.logLevel <= .debug {
            arena.transitionObserver = { t in
                log.debug("\(device): \(t.recognizer) \(t.from.rawValue) → \(t.to?.rawValue ?? "(impossible, ignored)") on \(t.event) at \(t.time)")
            }
        }
        let used = sections.isEmpty ? "[defaults]" : "[[device]] " + sections.map(String.init).joined(separator: ", ")
        let size = s.sizeMM != nil ? "size from config" : info.sizeReason
        log.info("\(info.name) (\(info.id)): \(used), \(arena.recognizers.count) recognizers, \(size)")
        let pipeline = DevicePipeline(info: info, transform: transform, arena: arena, initialSlots: initialSlots, palmMM: s.palmMM)
        if let mm = s.palmMM {
            if let p = pipeline.tracker.palm {
                log.info("\(info.name): contacts of \(fmt(mm)) mm or more on \(p.axisName) are palms")
            } else {
                log.warning("\(info.name): palm_mm = \(fmt(mm)) ignored: the device reports no contact size (ABS_MT_TOUCH_MAJOR or ABS_MT_WIDTH_MAJOR)")
            }
        }
        if s.quarantineGhosts == true {
            let ms = s.longestGhostMS ?? GhostQuarantine.Rules.defaultLongestGhostMS
            pipeline.quarantine = GhostQuarantine(rules: .init(longestGhostSeconds: ms / 1000), surface: pipeline.tracker.surface)
        }
        return pipeline
    }

    /// The device's coordinate transform: rotation, calibration (config, else udev), size_mm.
    static func transform(info: DeviceInfo, settings s: DeviceSettings, log: Logger) -> CoordinateTransform {
        var transform = CoordinateTransform.identity
        if let c = s.calibration {
            transform.calibration = c
        } else {
            do {
                transform = try CoordinateTransform.fromProperties(info.properties)
            } catch {
                log.warning("\(info.name): ignoring LIBINPUT_CALIBRATION_MATRIX: \(error)")
            }
        }
        if let r = s.rotation, let rot = Rotation(degrees: r) { transform.rotation = rot }
        if let z = s.sizeMM { transform.sizeMMOverride = SizeMM(width: z[0], height: z[1]) }
        return transform
    }

    /// A device's pipeline as the daemon would build it from `config`, for `gestured replay
    /// --config` and `gestured learn`; problems (a bad udev calibration) go to `warn`.
    public static func pipeline(info: DeviceInfo, config: DaemonConfig, warn: @escaping @Sendable (String) -> Void) -> DevicePipeline {
        let (s, sections) = config.settings(for: info.identity)
        return make(info: info, settings: s, sections: sections, config: config, disabled: [],
                    log: Logger(label: "gestured", factory: { _ in WarningHandler(warn: warn) }))
    }

    /// The transform the daemon would use for a device.
    public static func transform(info: DeviceInfo, config: DaemonConfig, warn: @escaping @Sendable (String) -> Void) -> CoordinateTransform {
        transform(info: info, settings: config.settings(for: info.identity).settings,
                  log: Logger(label: "gestured", factory: { _ in WarningHandler(warn: warn) }))
    }
}

/// Passes warnings and worse to a function; drops the rest (the daemon's info lines).
private struct WarningHandler: LogHandler {
    var warn: @Sendable (String) -> Void
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .warning

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        warn("\(event.message)")
    }
}
