import ArgumentParser
import Corpus
import Daemon
import Evdev
import GestureKit

/// `gestured-bench sequences`: how often a config's secret sequences (`[[sequence]]`) complete
/// by accident on everything the project has recorded — the unistroke corpus played as one
/// session (strokes 0.3 s apart, so many fall within one sequence's time), every real recording,
/// and the 10-finger recording in a loop. Every recognizer runs (the worst case: a mode that
/// runs fewer makes fewer gestures) and each sequence is followed in its own first mode.
struct SequencesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sequences",
        abstract: "False triggers of the secret sequences on the corpus and the recordings.")

    @OptionGroup var corpus: CorpusOption

    @Option(help: "The config whose [[sequence]]s and [[region]]s are measured.")
    var config = "config/kiosk.toml"

    @Option(help: "Times the 10-finger recording is played in a row.")
    var loops = 1000

    @Option(help: "Directory of the real recordings (every .events, .evemu and .yml under it).")
    var recordings = "Tests/Fixtures/recordings"

    /// Every file under a directory, recursively.
    static func files(under dir: String) -> [String] {
        (TextFile.entries(ofDirectory: dir) ?? []).flatMap { name -> [String] in
            let path = dir + "/" + name
            return TextFile.entries(ofDirectory: path) != nil ? files(under: path) : [path]
        }
    }

    static let tenFingers = "Tests/Fixtures/recordings/tablets/Wacom_DTH2242_Finger.events"

    func run() throws {
        var cfg = try ConfigLoader().load(path: config)
        guard !cfg.modes.sequences.isEmpty else { throw BenchError("\(config) has no [[sequence]]") }
        cfg.defaults.recognizers = nil
        for i in cfg.devices.indices { cfg.devices[i].settings.recognizers = nil }
        print("sequences of \(config):")
        for q in cfg.modes.sequences {
            print("  \(q.name): " + q.steps.map { "\($0.gesture.rawValue)\($0.region.map { " in \($0)" } ?? "")" }.joined(separator: ", ")
                  + " within \(q.within) s")
        }
        print("| input | input events | gesture events | steps in a row, at most | completed (false triggers) |")
        print("|---|---|---|---|---|")

        var strokes = Session(config: cfg)
        let info = try Recording.load(path: corpus.fixtures + "/unistroke/circle.evemu").info
        let pipeline = PipelineFactory.pipeline(info: info, config: cfg, warn: { print("warning: \($0)") })
        var clock = 0.0
        var frames = 0
        for s in try corpus.load().strokes {
            guard let first = s.frames.first?.time, let last = s.frames.last?.time else { continue }
            for var f in s.frames {
                f.time = clock + f.time - first
                strokes.handle(f, arena: pipeline.arena, label: pipeline.label)
                frames += 1
            }
            clock += last - first + 0.3
            strokes.settle(until: clock, arena: pipeline.arena, label: pipeline.label)
        }
        strokes.print("unistroke corpus, 5 people, 2,400 strokes", inputs: "\(frames) frames")

        var real = Session(config: cfg)
        var events = 0
        var files = 0
        for path in Self.files(under: recordings).sorted() where [".events", ".evemu", ".yml"].contains(where: path.hasSuffix) {
            guard let r = try? Recording.load(path: path) else { continue }
            files += 1
            events += real.play(r, config: cfg, passes: 1)
        }
        real.print("real recordings (\(files) files), each once", inputs: "\(events)")

        var ten = Session(config: cfg)
        let r = try Recording.load(path: Self.tenFingers)
        let n = ten.play(r, config: cfg, passes: loops)
        ten.print("10-finger recording × \(loops)", inputs: "\(n)")
    }
}

/// One stream of gestures and the sequences followed through it.
private struct Session {
    var matcher: SequenceMatcher
    let mode: [String]
    var gestures = 0
    var completed = 0
    /// Recognizer time runs on across recordings and passes.
    var clock = 0.0

    init(config: DaemonConfig) {
        matcher = SequenceMatcher(config.modes.sequences)
        mode = config.modes.sequences.map { $0.binding.inModes?.first ?? config.modes.initial }
    }

    mutating func emit(_ e: GestureEvent, _ label: DeviceLabel) {
        gestures += 1
        for m in Set(mode) { completed += matcher.feed(e, device: label, mode: m).done.count }
    }

    mutating func handle(_ f: borrowing TouchFrame, arena: GestureArena, label: DeviceLabel) {
        arena.fireDeadlines(until: f.time) { emit($0, label) }
        arena.handle(f) { emit($0, label) }
    }

    mutating func settle(until t: Double, arena: GestureArena, label: DeviceLabel) {
        arena.fireDeadlines(until: t) { emit($0, label) }
    }

    /// Plays a recording `passes` times in a row through the config's pipeline; its input events.
    mutating func play(_ r: Recording, config: DaemonConfig, passes: Int) -> Int {
        let p = PipelineFactory.pipeline(info: r.info, config: config, warn: { _ in })
        guard let first = r.events.first?.time, let last = r.events.last?.time else { return 0 }
        var n = 0
        for _ in 0..<passes {
            let offset = clock - first
            let events = r.events.map { e in InputEvent(time: e.time + offset, type: e.type, code: e.code, value: e.value) }
            p.play(events[...]) { emit($0, p.label) }
            n += events.count
            clock += last - first + 1
            p.fireDeadlines(until: clock) { emit($0, p.label) }
        }
        return n
    }

    func print(_ what: String, inputs: String) {
        let steps = zip(matcher.sequences, matcher.furthest).map { "\($0.1) of \($0.0.steps.count)" }.joined(separator: ", ")
        Swift.print("| \(what) | \(inputs) | \(gestures) | \(steps) | **\(completed)** |")
    }
}
