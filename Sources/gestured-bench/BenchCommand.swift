import ArgumentParser
import Glibc

/// `gestured-bench`: prints the figures of docs/performance.md (`pipeline`, the default) and of
/// docs/recognition.md (`accuracy`).
/// Build it in release mode: `swift build -c release --product gestured-bench`.
@main
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gestured-bench",
        abstract: "Measures gestured's speed and memory, and its recognizers' accuracy.",
        subcommands: [PipelineCommand.self, AccuracyCommand.self, OutputCommand.self, ShapesCommand.self],
        defaultSubcommand: PipelineCommand.self)
}

/// `gestured-bench [pipeline]`: the figures of docs/performance.md.
struct PipelineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pipeline",
        abstract: "Measures gestured's cost per input event, circle fit time, allocations and memory.")

    @Option(help: "Passes over each recording (one timing sample per pass).")
    var runs = 30

    @Option(help: "Write the figures as JSON to this file as well.")
    var json: String?

    @Argument(help: "Recordings to replay (evemu). Default: the fixtures the performance notes use.")
    var recordings: [String] = [
        "Tests/Fixtures/recordings/tablets/Wacom_DTH2242_Finger.events",
        "Tests/Fixtures/recordings/tablets/Wacom_ISDv4_E6_Finger.single-center-circle.events",
        "Tests/Fixtures/recordings/touchscreens/Atmel_maXTouch_Touchscreen.4-finger-drag-down.events",
    ]

    func run() throws {
        var report = BenchReport()
        for path in recordings {
            report.pipelines.append(try PipelineBench(path: path, runs: runs).run())
        }
        for path in recordings where path.contains("Atmel") || path.contains("ISDv4") {
            report.passthrough.append(try PassthroughBench(path: path, runs: runs).run())
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
