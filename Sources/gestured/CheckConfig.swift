import ArgumentParser

struct CheckConfig: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "check-config", abstract: "")

    func run() throws {
        throw NotBuiltYet(command: "check-config")
    }
}
