import ArgumentParser
import Daemon
import Logging

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the daemon (the default): recognize gestures, serve the socket, run bound commands.",
        discussion: """
            Signals: SIGTERM/SIGINT stop (socket removed, exit 0); SIGHUP reloads the config (a bad
            config is logged and the running one stays). With --replay, recordings act as devices.
            """)

    @Option(name: .long, help: "Configuration file.")
    var config = "/etc/gestured/gestures.toml"

    @Option(name: .long, help: "Socket path (overrides [socket] path and the default).")
    var socket: String?

    @Option(name: .long, help: "A recording to use as a device (repeatable).")
    var replay: [String] = []

    @Flag(name: .long, help: "Replay as fast as possible instead of at the recorded pace.")
    var fast = false

    @Flag(name: .long, help: "Exit once every recording has been replayed and bound commands have finished.")
    var exitAfterReplay = false

    @Flag(name: .long, help: "Start the recordings only when a client sends {\"replay\":true}.")
    var holdReplay = false

    @Flag(name: .long, help: "Watch live devices too when replaying.")
    var live = false

    @Flag(name: .long, help: "Log debug messages.")
    var verbose = false

    func run() throws {
        let verbose = self.verbose
        LoggingSystem.bootstrap { label in
            var h = JournalLogHandler(label: label)
            h.logLevel = verbose ? .debug : .info
            return h
        }
        let log = Logger(label: "gestured")
        var options = ServiceOptions(configPath: config)
        options.socketPath = socket
        options.replays = replay
        options.fast = fast
        options.exitAfterReplay = exitAfterReplay
        options.holdReplay = holdReplay
        options.liveDevices = replay.isEmpty || live
        let status: Int32
        do {
            status = try GestureService(options: options, log: log).run()
        } catch let e as ConfigErrors {
            log.critical("invalid configuration:\n\(e)")
            throw ExitCode(1)
        } catch {
            log.critical("\(error)")
            throw ExitCode(1)
        }
        if status != 0 { throw ExitCode(status) }
    }
}
