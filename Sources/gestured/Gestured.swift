import ArgumentParser
import Daemon

@main
struct Gestured: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gestured",
        abstract: "Touch gesture daemon: recognizes gestures on touchscreens and touchpads.",
        discussion: """
            With no subcommand, runs the daemon: gestured --config /etc/gestured/gestures.toml
            """,
        version: DaemonInfo.version,
        subcommands: [Run.self, Devices.self, Replay.self, Trace.self, CheckConfig.self, Doctor.self, Listen.self, Learn.self, GenerateUnits.self, UdevPassthrough.self, RunCommand.self, RelayCommand.self],
        defaultSubcommand: Run.self
    )
}

/// A subcommand that is declared but not built yet fails loudly instead of pretending.
struct NotBuiltYet: Error, CustomStringConvertible {
    var command: String
    var description: String { "gestured \(command) is not implemented yet" }
}
