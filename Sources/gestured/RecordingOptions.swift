import ArgumentParser
import Daemon
import Evdev

/// The options of the commands that read recordings (`replay`, `trace`): the device description
/// a recording may lack, and a config whose setup for the recording's device they use.
struct RecordingOptions: ParsableArguments {
    @Option(name: .long, help: "The device description (evemu .desc/.device), for a recording without one in it or beside it.")
    var device: String?

    @Option(name: .long, help: "A configuration file: the setup it gives the recording's device — recognizers, arena rules, transform, taught shapes (default: every recognizer at its defaults, no taught shapes).")
    var config: String?

    func recording(_ path: String) throws(RecordingError) -> Recording {
        try Recording.load(path: path, descriptionPath: device)
    }

    /// The config `--config` names, or nil; a bad one is printed as `check-config` prints it,
    /// and the command exits with 1.
    func loadConfig() throws -> DaemonConfig? {
        guard let config else { return nil }
        do {
            return try ConfigLoader().load(path: config)
        } catch let e as ConfigErrors {
            StandardStream.writeError(e.description + "\n")
            throw ExitCode(1)
        }
    }
}
