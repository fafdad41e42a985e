/// The client protocol, spoken alike by socket clients and by the fleet's broker: one JSON
/// command per line in (`ClientCommand`), one JSON line back (`ClientReply`). A malformed line is
/// answered here; a command by `perform`, which carries it out (the service's `perform`).
enum ClientProtocol {
    static func reply(to line: String, _ perform: (ClientCommand) -> ClientReply) -> String {
        switch ClientCommand.parse(line) {
        case .success(let command): perform(command).line
        case .failure(let e): ClientReply.error(e.message).line
        }
    }
}
