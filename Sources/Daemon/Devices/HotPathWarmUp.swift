import Evdev

/// Runs a made-up stroke through a throw-away copy of each device's pipeline once the daemon is
/// ready, so that the first real touch finds the code and data of the frame path already
/// mapped. Without it the first stroke after start paid a page fault for each page of the
/// tracker, arena and recognizers it touched first (a 37 MB binary, and `StartupPages` has just
/// let go of what start-up mapped): 18–70 ms on its first frames in the VM, against 5 ms p99
/// warm (issue 48). The copy is built from the same config as the device's own, so the same
/// recognizers run; it has no stage, so nothing reaches the app, the sinks or the clone.
enum HotPathWarmUp {
    /// Warms the path for each device in `infos` (one stroke per distinct identity); returns the
    /// seconds the strokes took.
    @discardableResult
    static func warm(_ infos: [DeviceInfo], config: DaemonConfig) -> Double {
        let start = MonotonicClock.now()
        var seen: Set<String> = []
        for info in infos where seen.insert(info.id).inserted {
            let pipeline = PipelineFactory.pipeline(info: info, config: config, warn: { _ in })
            WarmUpStroke.play(WarmUpStroke.events(for: info, at: MonotonicClock.now()), through: pipeline)
        }
        return MonotonicClock.now() - start
    }
}
