import ArgumentParser

struct Devices: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "devices", abstract: "")

    func run() throws {
        throw NotBuiltYet(command: "devices")
    }
}
