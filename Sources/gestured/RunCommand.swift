import ArgumentParser
import Daemon

/// The command runner's side (gestured-commands@.service, socket-activated): one bound command
/// read from the connection on standard input, run as the unit's user (CommandRunner).
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run-command",
        abstract: "For gestured-commands@.service: run one bound command the daemon hands over on standard input.",
        shouldDisplay: false)

    func run() throws {
        let status = CommandRunner.serve()
        if status != 0 { throw ExitCode(status) }
    }
}

/// The daemon's side: what it starts for a bound command inside gestured.service, standing for
/// the command the runner starts (CommandRelay).
struct RelayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "relay-command",
        abstract: "For the daemon: hand a bound command to the command runner and end as it ends.",
        shouldDisplay: false)

    @Argument(help: "The command runner's socket.")
    var socket: String

    @Argument(parsing: .postTerminator, help: "The command and its arguments.")
    var command: [String] = []

    func run() throws {
        guard !command.isEmpty else { throw ValidationError("needs the command after --") }
        throw ExitCode(CommandRelay.run(socket: socket, argv: command))
    }
}
