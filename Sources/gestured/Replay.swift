import ArgumentParser

struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "replay", abstract: "")

    func run() throws {
        throw NotBuiltYet(command: "replay")
    }
}
