import ArgumentParser

/// `gestured-bench`: prints the figures of docs/performance.md (`pipeline`, the default) and of
/// docs/recognition.md (`accuracy`, `shapes`, `strangers`, `teachers`, `sequences`).
/// Build it in release mode: `swift build -c release --product gestured-bench`.
@main
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gestured-bench",
        abstract: "Measures gestured's speed and memory, and its recognizers' accuracy.",
        subcommands: [PipelineCommand.self, InstructionsCommand.self, AccuracyCommand.self, OutputCommand.self, ShapesCommand.self, StrangersCommand.self, TeachersCommand.self, SequencesCommand.self],
        defaultSubcommand: PipelineCommand.self)
}
