import ArgumentParser

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "run", abstract: "")

    func run() throws {
        throw NotBuiltYet(command: "run")
    }
}
