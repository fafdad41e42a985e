import ArgumentParser
import Daemon

struct CheckConfig: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config",
        abstract: "Validate a configuration file and explain the setup it describes.",
        discussion: """
            Exit status 0 when valid; 1 with one `file:line: key: message` line per problem otherwise.
            Also compares what the config needs (/dev/uinput, the network) with what gestured.service
            is granted: inside the service (its ExecStartPre) a missing grant is an error; run by
            hand, it is a warning against the drop-in the systemd generator last wrote.
            """)

    @Argument(help: "The configuration file.")
    var file: String

    @Flag(name: .long, help: "Only validate; print nothing when valid.")
    var quiet = false

    func run() throws {
        let config: DaemonConfig
        do {
            config = try ConfigLoader().load(path: file)
        } catch let e as ConfigErrors {
            StandardStream.writeError(e.description + "\n")
            throw ExitCode(1)
        }
        if !quiet {
            StandardStream.writeLine("\(file): OK")
            StandardStream.writeLine(ConfigExplanation(config: config).text)
        }
        let needs = ServiceNeeds(config: config)
        if let granted = ServiceSandbox.grantedToThisProcess() {
            let problems = ServiceSandbox.problems(needs, granted: granted, probe: true)
            for p in problems { StandardStream.writeError("\(file): \(p)\n") }
            if !problems.isEmpty { throw ExitCode(1) }
        } else if let granted = ServiceSandbox.grantedByGenerator() {
            for p in ServiceSandbox.problems(needs, granted: granted, probe: false) {
                StandardStream.writeError("\(file): warning: \(p)\n")
            }
        }
        if !quiet {
            let list = needs.grants.map { "\($0.what) (\(needs.features(needing: $0)))" }.joined(separator: "; ")
            StandardStream.writeLine("service needs: \(list.isEmpty ? "nothing beyond reading input devices" : list)")
        }
    }
}
