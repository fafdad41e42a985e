import ArgumentParser
import Daemon

/// The systemd generator (installed as gestured-generator, a wrapper that runs this): writes the
/// drop-in granting gestured.service what its config needs. systemd runs generators at boot and
/// at every `systemctl daemon-reload`, before it loads units.
struct GenerateUnits: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate-units",
        abstract: "Write gestured.service's drop-in for the config (a systemd generator).",
        discussion: """
            Writes NORMAL_DIR/gestured.service.d/50-features.conf: /dev/uinput for passthrough, keys
            and click; the network for [mqtt]; nothing else. A config that does not load grants
            nothing (the unit's ExecStartPre then reports it). Exit status 0 unless the file cannot
            be written, so a bad config never fails the boot.
            """)

    @Argument(help: "The generator's normal output directory (systemd passes three; the others are unused).")
    var directories: [String]

    @Option(name: .long, help: "Configuration file.")
    var config = "/etc/gestured/gestures.toml"

    func run() throws {
        guard let out = directories.first else { throw ValidationError("needs the output directory") }
        let loaded: DaemonConfig?
        do {
            loaded = try ConfigLoader().load(path: config)
        } catch {
            StandardStream.writeError("gestured-generator: \(config) does not load, nothing granted:\n\(error)\n")
            loaded = nil
        }
        let path = "\(out)/\(ServiceGrant.dropInPath)"
        guard FileSystem.createDirectories(FileSystem.directory(of: path)) else {
            StandardStream.writeError("gestured-generator: cannot create \(FileSystem.directory(of: path))\n")
            throw ExitCode(1)
        }
        let dropIn = ServiceSandbox.dropIn(loaded, path: config)
        for r in dropIn.refused { StandardStream.writeError("gestured-generator: not written (\(r))\n") }
        do {
            try FileSystem.writeAtomically(Array(dropIn.text.utf8), toPath: path)
        } catch {
            StandardStream.writeError("gestured-generator: cannot write \(path): \(error)\n")
            throw ExitCode(1)
        }
    }
}
