/// How the daemon was started (`gestured --config … [--replay …]`).
public struct ServiceOptions: Sendable {
    public var configPath: String
    /// Overrides the config's socket path (tests, several instances).
    public var socketPath: String?
    public var replays: [String] = []
    public var fast = false
    public var exitAfterReplay = false
    /// Recordings wait for a client's `{"replay":true}` instead of starting at once.
    public var holdReplay = false
    /// Also watch live devices through udev (off when only replaying).
    public var liveDevices = true

    public init(configPath: String) { self.configPath = configPath }
}
