import ArgumentParser

struct Listen: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "listen", abstract: "")

    func run() throws {
        throw NotBuiltYet(command: "listen")
    }
}
