import Evdev
import GestureKit

/// What the recording fuzz targets do with a recording that parsed: replay it through the
/// pipeline a live device gets, as `--replay --fast` does (timeouts in recording time).
public enum FuzzReplay {
    /// Returns the number of gestures (so that nothing is optimised away).
    @discardableResult
    public static func run(_ recording: Recording?) -> Int {
        guard let recording else { return 0 }
        let pipeline = DevicePipeline(info: recording.info, arena: RecognizerCatalog.defaultArena())
        var gestures = 0
        for e in recording.events {
            var ticks = 0
            while let d = pipeline.deadline, d <= e.time, ticks < 1000 {
                pipeline.tick(now: d) { _ in gestures += 1 }
                ticks += 1
            }
            pipeline.feed(e) { _ in gestures += 1 }
        }
        var ticks = 0
        while let d = pipeline.deadline, ticks < 1000 {
            pipeline.tick(now: d) { _ in gestures += 1 }
            ticks += 1
        }
        return gestures
    }
}
