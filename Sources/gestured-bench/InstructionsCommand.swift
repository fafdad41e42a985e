import ArgumentParser
import Evdev
import GestureKit

/// `gestured-bench instructions`: the pipeline's work per frame, for counting under callgrind
/// (`scripts/count-instructions.sh`). Replays a recording pass after pass through one
/// `DevicePipeline` with every default recognizer, firing timers the way the daemon's timer does
/// (its deadline read after every frame, ticked when the next event comes later), and prints
/// the frames and gestures of the counted passes. Only `CountedReplay.run` is counted
/// (`--toggle-collect`): loading, start-up and the warm-up pass are left out.
struct InstructionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "instructions",
        abstract: "Replays a recording through the pipeline for callgrind to count (scripts/count-instructions.sh).")

    @Argument(help: "Recording to replay (evemu).")
    var recording = "Tests/Fixtures/recordings/tablets/Wacom_ISDv4_E6_Finger.single-top-swipe.events"

    @Option(help: "Counted passes over the recording (after one warm-up pass).")
    var passes = 10

    @Flag(help: "Build no `changed` events (GestureArena.reportChanges), as when only discrete gestures are bound and no client listens.")
    var unheardChanges = false

    func run() throws {
        let replay = try BenchRecording(path: recording)
        var counter = CountedReplay(replay)
        if unheardChanges {
            for kind in GestureKind.allCases where kind.isContinuous { counter.pipeline.arena.reportChanges(of: kind, false) }
        }
        counter.replay(passes: 1)  // warm-up, not counted: buffers reach their steady-state capacity
        counter.frames = 0
        counter.gestures = 0
        counter.run(passes: passes)
        print("recording: \(recording)\(unheardChanges ? " (changed events unheard)" : "")")
        print("passes: \(passes)  frames: \(counter.frames)  gestures: \(counter.gestures)  events: \(passes * replay.events.count)")
    }
}

/// The counted loop: input events in, gestures counted.
struct CountedReplay {
    let replay: BenchRecording
    let pipeline: DevicePipeline
    var offset = 0.0
    var frames = 0
    var gestures = 0

    init(_ replay: BenchRecording) {
        self.replay = replay
        pipeline = replay.pipeline()
    }

    /// The function callgrind counts (by name: keep it out of line). The warm-up calls `replay`
    /// directly: counted through `run` too, it made every per-frame figure 11/10 of the truth.
    @inline(never)
    mutating func run(passes: Int) { replay(passes: passes) }

    @inline(never)
    mutating func replay(passes: Int) {
        var frames = 0, gestures = 0
        var due = pipeline.deadline
        for _ in 0..<passes {
            for var e in replay.events {
                e.time += offset
                if let d = due, d <= e.time {
                    pipeline.tick(now: d) { _ in gestures += 1 }
                    due = pipeline.deadline
                }
                pipeline.feed(e) { _ in gestures += 1 }
                if e.type == EV.SYN && e.code == SYN.REPORT {
                    frames += 1
                    due = pipeline.deadline
                }
            }
            offset += replay.span
        }
        pipeline.fireDeadlines(until: offset) { _ in gestures += 1 }
        self.frames += frames
        self.gestures += gestures
    }
}
