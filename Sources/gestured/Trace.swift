import ArgumentParser

struct Trace: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "trace", abstract: "")

    func run() throws {
        throw NotBuiltYet(command: "trace")
    }
}
