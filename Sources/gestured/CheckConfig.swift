import ArgumentParser
import Daemon
import Evdev

struct CheckConfig: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config",
        abstract: "Validate a configuration file and explain the setup it describes.",
        discussion: """
            Exit status 0 when valid; 1 with one `file:line: key: message` line per problem otherwise.
            Also compares what the config needs (/dev/uinput, the network) with what gestured.service
            is granted: inside the service (its ExecStartPre) a missing grant is an error; run by
            hand, it is a warning against the drop-in the systemd generator last wrote.
            With --device, also checks what the config asks of that device: passthrough on a device
            that cannot be passed through (single-touch or protocol A) is an error.
            """)

    @Argument(help: "The configuration file.")
    var file: String

    @Flag(name: .long, help: "Only validate; print nothing when valid.")
    var quiet = false

    @Option(name: .long, help: "A device to check the config against: an event node (/dev/input/eventN) or a recording or description (evemu .events/.desc). Repeatable.")
    var device: [String] = []

    func run() throws {
        let config: DaemonConfig
        do {
            config = try ConfigLoader().load(path: file)
        } catch let e as ConfigErrors {
            StandardStream.writeError(e.description + "\n")
            throw ExitCode(1)
        }
        if !quiet {
            StandardStream.writeLine("\(file): OK")
            StandardStream.writeLine(ConfigExplanation(config: config).text)
        }
        // Named, not refused: a config may mean it (a kiosk whose staff unlock it by a gesture).
        for way in ModeOpenings.find(config) { StandardStream.writeError("\(file): warning: \(way)\n") }
        var refused = false
        for path in device {
            let info: DeviceInfo
            do {
                if path.hasPrefix("/dev/") {
                    let udev = DeviceMonitor().enumerate().first { $0.devnode == path }?.properties ?? [:]
                    info = try EvdevDevice(devnode: path, properties: udev).info
                } else {
                    info = try Recording.load(path: path).info
                }
            } catch {
                StandardStream.writeError("\(file): --device \(path): \(error)\n")
                throw ExitCode(1)
            }
            if let reason = PipelineFactory.passthroughRefusal(info: info, config: config) {
                StandardStream.writeError("\(file): device \"\(info.name)\" (\(path)): \(reason)\n")
                refused = true
            } else if !quiet {
                StandardStream.writeLine("device \"\(info.name)\" (\(path)): \(info.kind.rawValue), \(Devices.protocolName(info.touchProtocol)): OK")
            }
        }
        if refused { throw ExitCode(1) }
        let needs = ServiceNeeds(config: config)
        if let granted = ServiceSandbox.grantedToThisProcess() {
            let problems = ServiceSandbox.problems(needs, granted: granted, probe: true)
            for p in problems { StandardStream.writeError("\(file): \(p)\n") }
            if !problems.isEmpty { throw ExitCode(1) }
        } else if let granted = ServiceSandbox.grantedByGenerator() {
            for p in ServiceSandbox.problems(needs, granted: granted, probe: false) {
                StandardStream.writeError("\(file): warning: \(p)\n")
            }
        }
        if !quiet {
            let list = needs.grants.map { "\($0.what) (\(needs.features(needing: $0)))" }.joined(separator: "; ")
            StandardStream.writeLine("service needs: \(list.isEmpty ? "nothing beyond reading input devices" : list)")
        }
    }
}
