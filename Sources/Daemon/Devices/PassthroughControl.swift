import Evdev
import GestureKit
import Logging

/// A live session's passthrough and grab: makes, keeps (with new rules) or removes the clone as
/// the config says; the device stays open throughout, grabbed while it is passed through or
/// `grab` asks for it. With `map_clone`, the clone's udev properties are checked once, at the
/// first read after it was made (udev has long run its rules by then).
struct PassthroughControl {
    /// The clone and its relay, the stage after the arena; nil when the app reads the device.
    private(set) var passthrough: Passthrough?
    /// `map_clone`: the clone's calibration is checked at the next drained read (`checkCalibration`).
    private(set) var checkDue = false
    /// Set, a matrix udev gives the clone too (`status`'s `clone_calibration_twice`).
    private(set) var matrixTwice: String?

    /// The panel the clone was made of (its identity, shape and mapping), for its return (CloneKeeper).
    private var panel: ClonePanel?
    /// Seconds the clone waits for its panel after the panel went (`keep_clone_s`).
    private var keepSeconds = DeviceSettings.defaultKeepCloneS

    /// `keeper`: where a clone waits for its panel's return; a panel opening takes its own back.
    mutating func configure(_ device: EvdevDevice, info: DeviceInfo, settings: DeviceSettings, config: DaemonConfig,
                            keeper: CloneKeeper?, log: Logger) {
        let name = info.name
        keepSeconds = settings.keepCloneS ?? DeviceSettings.defaultKeepCloneS
        guard let rules = PipelineFactory.passthroughRules(settings, info: info, config: config) else {
            if passthrough == nil, let keeper, keeper.count > 0 { keeper.release(device.clonePanel(mapping: nil).identity) }
            if let p = passthrough {
                p.end()
                passthrough = nil
                log.info("\(name): passthrough off, clone \(p.clone.devnode) removed")
            }
            Self.setGrab(device, PipelineFactory.wantsGrab(settings), name: name, log: log)
            return
        }
        let mapTo = Self.cloneTransform(info: info, settings: settings, log: log)
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
            Self.setGrab(device, settings.grab ?? false, name: name, log: log)
            return
        }
        do {
            try device.setGrabbed(true)
            let panel = device.clonePanel(mapping: mapTo)
            let kept = keeper?.take(for: panel)
            if let kept { kept.resume(reading: device) }
            let clone = try kept ?? TouchClone(of: device, mapTo: mapTo)
            passthrough = Passthrough(clone: clone, rules: rules)
            self.panel = panel
            checkDue = mapTo != nil
            matrixTwice = nil
            let how = kept != nil ? "back, passed through to its kept clone" : "passed through to"
            log.info("\(name): \(how) \(clone.devnode) (\(clone.name))\(mapTo.map { " in screen coordinates (map_clone: rotation \($0.rotation.rawValue)°\($0.isIdentityCalibration ? "" : ", calibrated"))" } ?? "")")
        } catch {
            log.error("\(name): passthrough failed, the app keeps the device: \(error)")
            Self.setGrab(device, settings.grab ?? false, name: name, log: log)
        }
    }

    /// The device is closed (its panel went, or shutdown): the app's touches end at once, with
    /// their SYN_REPORT; the clone waits with `keeper` for the panel's return, or goes.
    mutating func end(keeper: CloneKeeper?, name: String) {
        defer { passthrough = nil }
        guard let p = passthrough else { return }
        if p.clone.isAlive { p.panelGone() }
        guard let keeper, let panel, p.clone.isAlive else {
            p.end()
            return
        }
        keeper.keep(p.clone, panel: panel, seconds: keepSeconds, name: name, now: MonotonicClock.now())
    }

    /// `map_clone`: the transform the clone applies (the pipeline's: rotation, calibration from
    /// the config or the device's udev matrix), else nil.
    private static func cloneTransform(info: DeviceInfo, settings: DeviceSettings, log: Logger) -> CoordinateTransform? {
        guard settings.mapClone == true else { return nil }
        var t = PipelineFactory.transform(info: info, settings: settings, log: log)
        t.sizeMMOverride = nil  // sizes do not change where a touch is on the screen
        return t
    }

    /// The rule for LIBINPUT_CALIBRATION_MATRIX with `map_clone`: gestured applies the device's
    /// calibration (the config's, else the real device's udev matrix) in the clone, so the clone
    /// must carry no matrix of its own — libinput would apply it a second time. A udev rule that
    /// gives the clone one (the rule docs/arbitration.md shows for clones without map_clone) is
    /// an error in the log and in `status` (`clone_calibration_twice`).
    @inline(never)
    mutating func checkCalibration(name: String, log: Logger) {
        checkDue = false
        guard let clone = passthrough?.clone, let m = UdevProperty.value("LIBINPUT_CALIBRATION_MATRIX", devnode: clone.devnode),
              (try? CoordinateTransform.parseCalibrationMatrix(m)) != CoordinateTransform.identityMatrix else { return }
        matrixTwice = m
        log.error("\(name): udev gives the clone \(clone.devnode) LIBINPUT_CALIBRATION_MATRIX=\"\(m)\", but map_clone already maps it: libinput applies the matrix a second time. Remove the udev rule for \"\(clone.name)\" (the real device's matrix is applied by gestured), or set map_clone = false")
    }

    private static func setGrab(_ device: EvdevDevice, _ on: Bool, name: String, log: Logger) {
        do { try device.setGrabbed(on) } catch { log.error("\(name): \(error)") }
    }
}
