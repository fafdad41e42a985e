import ArgumentParser
import Daemon

/// `gestured doctor`: is this kiosk set up right, and if not, what to do.
struct Doctor: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check the installation: devices, permissions, the generator's grants, the socket, the broker, the screen, the clone.",
        discussion: """
            One line per check: ✔ fine, ✖ wrong (with the fix: the command to run, the key to set),
            – does not apply. Access is judged as the service has it: the running daemon (found
            through its socket), else gestured.service as systemd would start it, else this process.
            Run as root to see every device and who reads the clone. Exit status 1 when anything is wrong.
            """)

    @Option(name: .long, help: "The configuration to check (one not installed yet, too).")
    var config = "/etc/gestured/gestures.toml"

    @Option(name: .long, help: "Socket path (default: the config's, else the daemon's default).")
    var socket: String?

    @Option(name: .long, help: "Seconds the broker may take to accept the connection.")
    var brokerTimeout: Double = 3

    func run() throws {
        var doctor = Daemon.Doctor(configPath: config, socketPath: socket)
        doctor.brokerTimeout = brokerTimeout
        let findings = doctor.run()
        for f in findings { StandardStream.writeLine(f.line) }
        let wrong = findings.filter { $0.verdict == .wrong }.count
        StandardStream.writeLine(wrong == 0 ? "all checks passed" : "\(wrong) problem\(wrong == 1 ? "" : "s") found")
        if wrong > 0 { throw ExitCode(1) }
    }
}
