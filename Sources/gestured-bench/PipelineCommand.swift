import ArgumentParser
import Glibc

/// `gestured-bench [pipeline]`: the figures of docs/performance.md.
struct PipelineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pipeline",
        abstract: "Measures gestured's cost per input event, circle fit time, allocations and memory.")

    @Argument(help: "Recordings to replay (evemu). Default: the fixtures docs/performance.md uses.")
    var recordings: [String] = [
        "Tests/Fixtures/recordings/tablets/Wacom_DTH2242_Finger.events",
        BenchRecording.circle,
        "Tests/Fixtures/recordings/touchscreens/Atmel_maXTouch_Touchscreen.4-finger-drag-down.events",
    ]

    @Option(help: "Passes over each recording (one timing sample per pass).")
    var runs = 30

    @Option(help: "Write the figures as JSON to this file as well.")
    var json: String?

    func run() throws {
        var report = BenchReport()
        do {  // the recordings are released before the memory figure
            let replays = try recordings.map(BenchRecording.init(path:))
            for replay in replays {
                report.pipelines.append(PipelineBench.measure(replay, runs: runs))
            }
            for replay in replays where replay.path.contains("Atmel") || replay.path.contains("ISDv4") {
                report.passthrough.append(try PassthroughBench.measure(replay, runs: runs))
            }
        }
        report.circleFits = CircleFitBench.run(sizes: [64, 256, 1024])
        report.memory = ProcessMemory.resident()
        print(report.table())
        if let json {
            guard let f = fopen(json, "w") else { throw BenchError("cannot write \(json)") }
            fputs(report.json() + "\n", f)
            fclose(f)
        }
    }
}
