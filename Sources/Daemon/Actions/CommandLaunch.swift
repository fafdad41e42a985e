import Evdev
import Glibc

/// How the daemon starts a bound command. Inside gestured.service it is never started as the
/// daemon's own user (which reads every input device and may hold /dev/uinput and the broker's
/// password): the daemon starts a relay that hands it to the command runner, another unit with
/// a user of its own (CommandRelay, CommandRunner). Outside the service (a developer's shell,
/// the tests) the daemon starts it itself, as whoever runs gestured.
enum CommandLaunch: Equatable {
    case direct
    /// Through the relay: this executable, `relay-command`, the runner's socket.
    case runner(executable: String, socket: String)
    /// Inside the service without the runner's grant: no command runs (failing closed), and
    /// each attempt says why.
    case refused(String)

    /// Names a runner's socket outside the service (the tests' `systemd-socket-activate`).
    static let socketVariable = "GESTURED_COMMAND_RUNNER"

    static func forThisProcess(environment: [String: String] = ProcessEnvironment.current) -> CommandLaunch {
        if let socket = environment[socketVariable], !socket.isEmpty { return through(socket) }
        guard let granted = environment[ServiceGrant.environmentName].map(ServiceSandbox.parse) else { return .direct }
        guard granted.contains(.commands) else {
            return .refused("commands run as gestured-commands.socket's user, which gestured.service is not granted: run `\(ServiceGrant.fix)`")
        }
        return through(ServiceGrant.runnerSocket)
    }

    private static func through(_ socket: String) -> CommandLaunch {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return .refused("cannot find gestured's own executable for the relay: \(Errno.current)") }
        return .runner(executable: String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self), socket: socket)
    }

    struct Refusal: Error, CustomStringConvertible {
        var description: String
    }

    /// The arguments the spawner starts for `argv`.
    func arguments(for argv: [String]) throws(Refusal) -> [String] {
        switch self {
        case .direct: argv
        case .runner(let executable, let socket): [executable, "relay-command", socket, "--"] + argv
        case .refused(let why): throw Refusal(description: why)
        }
    }
}
