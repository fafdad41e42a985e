import Evdev
import GestureKit
import Glibc

/// Runs a made-up stroke through a throw-away copy of each device's pipeline once the daemon is
/// ready, so that the first real touch finds the code and data of the frame path already
/// mapped. Without it the first stroke after start paid a page fault for each page of the
/// tracker, arena and recognizers it touched first (a 37 MB binary, and `StartupPages` has just
/// let go of what start-up mapped): 18–70 ms on its first frames in the VM, against 5 ms p99
/// warm (issue 48). The copy is built from the same config as the device's own, so the same
/// recognizers run, with a gate that answers nothing and, for a passed-through device, the
/// same stage as its own (Passthrough: the relay and the clone's encoding and write) writing to
/// /dev/null: nothing reaches the app, the modes, the sinks or the clone.
enum HotPathWarmUp {
    /// Warms the path for each device in `infos` (one stroke per distinct identity); returns the
    /// seconds the strokes took.
    @discardableResult
    static func warm(_ infos: [DeviceInfo], config: DaemonConfig) -> Double {
        let start = MonotonicClock.now()
        let devNull = open("/dev/null", O_WRONLY | O_CLOEXEC)
        defer { if devNull >= 0 { close(devNull) } }
        let gate = TouchGate()
        var seen: Set<String> = []
        for info in infos where seen.insert(info.id).inserted {
            let pipeline = PipelineFactory.pipeline(info: info, config: config, warn: { _ in })
            pipeline.gate = Borrowed(gate)
            pipeline.stage = stage(for: info, config: config, devNull: devNull)
            WarmUpStroke.play(WarmUpStroke.events(for: info, at: MonotonicClock.now()), through: pipeline)
        }
        withExtendedLifetime(gate) {}
        return MonotonicClock.now() - start
    }

    /// The device's passthrough stage as its session would make it, writing to /dev/null; nil
    /// when it is not passed through (or /dev/null cannot be opened: the warm-up goes without).
    static func stage(for info: DeviceInfo, config: DaemonConfig, devNull: Int32) -> Passthrough? {
        let settings = config.settings(for: info.identity).settings
        guard devNull >= 0, PipelineFactory.passthroughUnsupported(info) == nil,
              let rules = PipelineFactory.passthroughRules(settings, info: info, config: config) else { return nil }
        return Passthrough(clone: TouchClone(sink: FileFrameSink(fd: devNull), slotCount: info.slotCount), rules: rules)
    }
}
