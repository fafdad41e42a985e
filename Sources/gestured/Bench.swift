import ArgumentParser

struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "bench", abstract: "")

    func run() throws {
        throw NotBuiltYet(command: "bench")
    }
}
