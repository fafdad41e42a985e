import ArgumentParser
import Daemon

struct CheckConfig: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config",
        abstract: "Validate a configuration file and explain the setup it describes.",
        discussion: "Exit status 0 when valid; 1 with one `file:line: key: message` line per problem otherwise.")

    @Argument(help: "The configuration file.")
    var file: String

    @Flag(name: .long, help: "Only validate; print nothing when valid.")
    var quiet = false

    func run() throws {
        do {
            let config = try ConfigLoader().load(path: file)
            if !quiet {
                StandardStream.writeLine("\(file): OK")
                StandardStream.writeLine(ConfigExplanation(config: config).text)
            }
        } catch let e as ConfigErrors {
            StandardStream.writeError(e.description + "\n")
            throw ExitCode(1)
        }
    }
}
