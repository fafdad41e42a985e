/// `[mqtt]`: the link to a fleet's broker. Absent: no MQTT at all.
public struct MQTTConfig: Sendable, Equatable {
    public var host: String
    public var port: Int
    /// `mqtts://`: TLS, checked against `caFile`.
    public var tls: Bool
    public var caFile: String?
    /// A client certificate and its key, both or neither.
    public var certFile: String?
    public var keyFile: String?
    public var username: String?
    /// Where the password is: its first line, read by the resolve step (ConfigResolver).
    public var passwordFile: String?
    /// Read from `password_file` when the config is loaded; never written in the config itself.
    public var password: String?
    /// nil: `gestured-<machine id>` (/etc/machine-id), unique per installed system, so kiosks
    /// cloned from one image with one hostname do not knock each other off the broker.
    public var clientID: String?
    /// Whether the broker's commands (`<prefix>/command`, the fleet topic) are obeyed at all:
    /// off unless the operator turns them on. A retained command is never obeyed.
    public var commands = false
    /// nil: `gestured/<hostname>`.
    public var topic: String?
    /// Commands every kiosk of the fleet takes.
    public var fleetTopic = "gestured/all/command"
    public var qos: Int32 = 1
    /// Messages held while the broker is away; past it the oldest are dropped (and counted).
    public var maxQueue = 1000
    /// Back-off between reconnection attempts doubles from 1 s up to this.
    public var reconnectMax: Double = 30
    public var keepalive: Int32 = 30
    /// What is published; empty: every gesture, in its default phases.
    public var publish: [GestureFilter] = []
    /// Home Assistant's MQTT discovery (`homeassistant = true`): the kiosk announces itself.
    public var homeAssistant = false
    /// Where Home Assistant listens for discovery (its `discovery_prefix`).
    public var homeAssistantPrefix = "homeassistant"
    /// Minutes after the last touch that the kiosk still counts as in use (Home Assistant's
    /// "in use" binary sensor).
    public var inUseMinutes: Double = 5

    /// A password file is one line; more than this is not one.
    public static let maxPasswordFileBytes = 4096

    public init(host: String, port: Int, tls: Bool) {
        self.host = host
        self.port = port
        self.tls = tls
    }
}
