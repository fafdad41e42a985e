import ArgumentParser
import Daemon
import Evdev
import GestureKit
import Glibc

/// `gestured replay`: recordings through the same DevicePipeline the daemon uses — with every
/// default recognizer, or with `--config` the recognizers, arena rules, transform and taught
/// shapes that config sets up for the recording's device; JSON lines on stdout.
struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Run recordings (evemu or libinput record) through the recognizers and print gesture events as JSON lines.")

    @Flag(name: .long, help: "Also print every touch frame.")
    var frames = false

    @OptionGroup var input: RecordingOptions

    @Argument(help: "Recording files.")
    var files: [String]

    func run() throws {
        let loaded = try input.loadConfig()
        var failed = false
        let out = StandardStream()
        for path in files {
            let recording: Recording
            do {
                recording = try input.recording(path)
            } catch {
                StandardStream.writeError("gestured replay: \(error)\n")
                failed = true
                continue
            }
            if recording.info.sizeIsFallback {
                // Thresholds are in mm: say when the mm are a guess.
                StandardStream.writeError("gestured replay: note: \(path): \(recording.info.sizeReason)\n")
            }
            let pipeline = loaded.map { config in
                PipelineFactory.pipeline(info: recording.info, config: config) { StandardStream.writeError("gestured replay: note: \($0)\n") }
            }
            Self.replay(recording, pipeline: pipeline, frames: frames, out: out)
        }
        out.flush()
        if failed { throw ExitCode(1) }
    }

    static func replay(_ recording: Recording, pipeline configured: DevicePipeline? = nil, frames: Bool, out: StandardStream) {
        let pipeline = configured ?? DevicePipeline(info: recording.info, arena: RecognizerCatalog.defaultArena())
        let label = pipeline.label
        let emit: (GestureEvent) -> Void = { event in out.line(event.json(device: label)) }
        // Timeouts fire at their time, between frames, as the daemon's timer would.
        if frames {
            pipeline.play(recording.events[...], onFrame: { out.line($0.json(device: label)) }, onGesture: emit)
        } else {
            pipeline.play(recording.events[...], onGesture: emit)
        }
        // After the recording: let pending timeouts (double-tap windows, …) run out.
        pipeline.fireDeadlines(until: .infinity, onGesture: emit)
        out.flush()
    }
}
