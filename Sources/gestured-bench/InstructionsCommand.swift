import ArgumentParser
import CLibevdev
import Evdev
import GestureKit

/// `gestured-bench instructions`: the pipeline's work per frame, for counting under callgrind
/// (`scripts/count-instructions.sh`). Replays a recording pass after pass through one
/// `DevicePipeline` with every default recognizer, in reads of one frame as the daemon feeds a
/// live device's (`EventBatch`, kernel times), firing timers the way the daemon's timer does
/// (its deadline read after every frame, ticked when the next read comes later), and prints
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
        counter.prepare(1)
        counter.replay(passes: 1)  // warm-up, not counted: buffers reach their steady-state capacity
        counter.frames = 0
        counter.gestures = 0
        counter.prepare(passes)
        counter.run(passes: passes)
        print("recording: \(recording)\(unheardChanges ? " (changed events unheard)" : "")")
        print("passes: \(passes)  frames: \(counter.frames)  gestures: \(counter.gestures)  events: \(passes * replay.events.count)")
    }
}

/// The counted loop: the recording's events in reads, one frame a read, as the daemon's
/// `DeviceSession.readable` feeds a live device's (`EvdevDevice.read` → `EventBatch`), gestures counted.
struct CountedReplay {
    let replay: BenchRecording
    let pipeline: DevicePipeline
    /// The recording as a device's reads leave it (kernel times), made for every pass before
    /// counting starts: pass p's clock is `p * span` on.
    private var passes: [[input_event]] = []
    /// Where each frame's events end (after its EV_SYN), and the time of each frame's first event.
    private let frameEnds: [Int]
    private let frameStarts: [Double]
    private var played = 0
    var frames = 0
    var gestures = 0

    init(_ replay: BenchRecording) {
        self.replay = replay
        pipeline = replay.pipeline()
        var ends: [Int] = []
        var starts: [Double] = []
        for (i, e) in replay.events.enumerated() {
            if starts.count == ends.count { starts.append(e.time) }
            if e.type == EV.SYN { ends.append(i + 1) }
        }
        if ends.last != replay.events.count { ends.append(replay.events.count) }
        frameEnds = ends
        frameStarts = starts
    }

    /// The function callgrind counts (by name: keep it out of line). The warm-up calls `replay`
    /// directly: counted through `run` too, it made every per-frame figure 11/10 of the truth.
    @inline(never)
    mutating func run(passes: Int) { replay(passes: passes) }

    /// The kernel events of the next `count` passes (before `run`: the kernel makes them).
    mutating func prepare(_ count: Int) {
        passes = (played..<played + count).map { pass in
            replay.events.map { e in
                var k = e
                k.time += Double(pass) * replay.span
                return input_event(k)
            }
        }
    }

    @inline(never)
    mutating func replay(passes count: Int) {
        var frames = 0, gestures = 0
        var due = pipeline.deadline
        for pass in 0..<count {
            let offset = Double(played + pass) * replay.span
            passes[pass].withUnsafeBufferPointer { events in
                var start = 0
                for (f, end) in frameEnds.enumerated() {
                    // The timer fires before the read when it was due first, as in the daemon's loop.
                    if let d = due, d <= frameStarts[f] + offset {
                        pipeline.tick(now: d) { _ in gestures += 1 }
                        due = pipeline.deadline
                    }
                    pipeline.feed(EventBatch(base: events.baseAddress! + start, count: end - start)) { _ in gestures += 1 }
                    if events[end - 1].type == EV.SYN && events[end - 1].code == SYN.REPORT { frames += 1 }
                    due = pipeline.deadline
                    start = end
                }
            }
        }
        played += count
        pipeline.fireDeadlines(until: Double(played) * replay.span) { _ in gestures += 1 }
        self.frames += frames
        self.gestures += gestures
    }
}
