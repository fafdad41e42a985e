import ArgumentParser
import Daemon
import Evdev

/// Asked by udev (`systemd/61-gestured-passthrough.rules`, IMPORT{program}) for each touch
/// device that appears: prints `LIBINPUT_IGNORE_DEVICE=1` when the config passes it through, so
/// that libinput — every compositor, and Xorg — never opens the physical node and reads only
/// gestured's clone. While gestured is not running (a crash, kill -9, the watchdog, a restart,
/// an upgrade) the app then gets no touch at all rather than the raw panel: the lock fails closed.
struct UdevPassthrough: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "udev-passthrough",
        abstract: "For udev: the properties of a device gestured passes through (hidden from libinput).",
        discussion: """
            Prints LIBINPUT_IGNORE_DEVICE=1 and GESTURED_PASSTHROUGH=1 when the config passes the
            device through; nothing for gestured's own clones, devices it does not pass through, or
            when the config does not load (the error goes to standard error, which udev logs).
            Always exits 0: udev imports nothing from a program that fails.
            """)

    @Option(name: .long, help: "The configuration file.")
    var config = "/etc/gestured/gestures.toml"

    @Argument(help: "The device's event node ($devnode in a udev rule).")
    var devnode: String

    func run() throws {
        let loaded: DaemonConfig
        do {
            loaded = try ConfigLoader().load(path: config)
        } catch {
            StandardStream.writeError("gestured udev-passthrough: \(devnode) left to libinput: \(error)\n")
            return
        }
        // udev hands a program the device's properties as its environment.
        guard let device = try? EvdevDevice(devnode: devnode, properties: ProcessEnvironment.current) else { return }
        let info = device.info
        guard !info.name.hasSuffix(TouchClone.nameSuffix), PipelineFactory.passesThrough(info: info, config: loaded) else { return }
        StandardStream.writeLine("LIBINPUT_IGNORE_DEVICE=1")
        StandardStream.writeLine("GESTURED_PASSTHROUGH=1")
    }
}
