import Evdev
import GestureKit

/// A recording as the benchmarks replay it: loaded once, then fed pass after pass with each
/// pass's clock continuing where the previous one ended (`span` later), so that the recognizers
/// see one long session, not time running backwards.
struct BenchRecording {
    let path: String
    let recording: Recording
    let events: [InputEvent]
    /// How far one pass moves the clock on: the recording's length and a second.
    let span: Double

    /// One circle drawn on a Wacom ISDv4 screen: the recording the pipeline and output figures share.
    static let circle = "Tests/Fixtures/recordings/tablets/Wacom_ISDv4_E6_Finger.single-center-circle.events"

    init(path: String) throws {
        self.path = path
        recording = try Recording.load(path: path)
        events = recording.events
        guard let first = events.first, let last = events.last else { throw BenchError("\(path): the recording has no events") }
        span = last.time - first.time + 1
    }

    /// The daemon's pipeline for this device with every default recognizer.
    func pipeline() -> DevicePipeline {
        DevicePipeline(info: recording.info, transform: CoordinateTransform(), arena: RecognizerCatalog.defaultArena())
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}
