/// A permission the shipped `gestured.service` withholds and a config can need. The unit only
/// reads input devices; the systemd generator (`gestured generate-units`) grants these in a
/// drop-in, each only while the config uses a feature that needs it.
public enum ServiceGrant: String, CaseIterable, Sendable {
    /// Write `/dev/uinput`: passthrough's clone, `keys`' keyboard, `click`'s pointer.
    case uinput
    /// IP sockets, to the broker's address when known: `[mqtt]`.
    case network
    /// The command runner's socket (gestured-commands.socket): bound commands run as its user,
    /// not the daemon's (CommandLaunch).
    case commands

    /// The environment variable the drop-in sets to the granted names (comma-separated), so the service itself
    /// (its ExecStartPre, a reload) can tell what its unit allows.
    public static let environmentName = "GESTURED_GRANTS"
    /// The group the package's udev rule gives `/dev/uinput` (0660): whoever can write it can
    /// type anything, so it is a group of its own, not `input`.
    public static let uinputGroup = "gestured-uinput"
    public static let uinputNode = "/dev/uinput"
    /// The group that may connect to the command runner's socket: the daemon's only (the
    /// package makes it; gestured-commands.socket is 0660 to it).
    public static let runnerGroup = "gestured-run"
    /// gestured-commands.socket's `ListenStream=`.
    public static let runnerSocket = "/run/gestured-commands/commands.sock"
    /// The drop-in, relative to the generator's output directory.
    public static let dropInPath = "gestured.service.d/50-features.conf"
    /// Where systemd keeps what generators wrote (their "normal" directory).
    public static let generatorDirectory = "/run/systemd/generator"
    /// The credential systemd hands the service the broker's password as (`LoadCredential=`, in
    /// `$CREDENTIALS_DIRECTORY`): systemd reads `password_file` as root, so the file can be
    /// 0600 root:root, readable by no listener.
    public static let passwordCredential = "mqtt-password"

    /// The credential a sequence's `steps_file` is handed over as: `sequence-N-steps`, N the
    /// sequence's binding number (its place among the config's bindings and sequences).
    public static func stepsCredential(_ n: Int) -> String { "sequence-\(n)-steps" }

    /// Whether a credential name is one gestured asks for.
    static func isCredential(_ name: Substring) -> Bool {
        if name == passwordCredential { return true }
        guard name.hasPrefix("sequence-"), name.hasSuffix("-steps") else { return false }
        let n = name.dropFirst("sequence-".count).dropLast("-steps".count)
        return !n.isEmpty && n.count <= 4 && n.allSatisfy(\.isASCII) && n.allSatisfy(\.isNumber)
    }
    /// The one command that makes the running service match the config.
    public static let fix = "systemctl daemon-reload && systemctl restart gestured"

    public var what: String {
        switch self {
        case .uinput: Self.uinputNode
        case .network: "the network"
        case .commands: "the command runner (gestured-commands.socket)"
        }
    }

    /// The unit settings that grant it. The network is opened to the broker's address when the
    /// URL names one (or localhost); a host name is resolved at connect time, so then to any.
    func unitSettings(_ config: DaemonConfig) -> [String] {
        switch self {
        case .uinput:
            return ["SupplementaryGroups=\(Self.uinputGroup)", "DeviceAllow=\(Self.uinputNode) rw"]
        case .network:
            let host = config.mqtt?.host ?? ""
            let allow = host == "localhost" || UnitVocabulary.isAddress(host) ? host : "any"
            return ["RestrictAddressFamilies=AF_INET AF_INET6", "IPAddressAllow=\(allow)"]
        case .commands:
            return ["SupplementaryGroups=\(Self.runnerGroup)"]
        }
    }
}

/// What a config needs from the service's sandbox, with where in the file each need comes from.
public struct ServiceNeeds: Sendable {
    /// Each need in file order: the grant and the feature that needs it ("keys in [[bind]] 2").
    public var reasons: [(grant: ServiceGrant, feature: String)] = []

    public init(config: DaemonConfig) {
        if config.defaults.passthrough == true { reasons.append((.uinput, "passthrough in [defaults]")) }
        for d in config.devices where d.settings.passthrough == true {
            reasons.append((.uinput, "passthrough in [[device]] \(d.index)"))
        }
        let actions = config.bindings.map { ($0.action, "[[bind]] \($0.index)") }
            // Numbered, not named: a feature's description is written into the generator's drop-in.
            + config.modes.sequences.enumerated().map { ($1.binding.action, "[[sequence]] \($0 + 1)") }
        for (action, section) in actions {
            switch action {
            case .keys: reasons.append((.uinput, "keys in \(section)"))
            case .click: reasons.append((.uinput, "click in \(section)"))
            case .command: reasons.append((.commands, "run in \(section)"))
            case .switchMode: break
            }
        }
        if config.modes.screen.wake != nil { reasons.append((.commands, "wake in [screen]")) }
        if let m = config.mqtt { reasons.append((.network, "[mqtt] \(m.tls ? "mqtts" : "mqtt")://\(m.host):\(m.port)")) }
    }

    public var grants: [ServiceGrant] { ServiceGrant.allCases.filter { g in reasons.contains { $0.grant == g } } }

    public func features(needing grant: ServiceGrant) -> String {
        reasons.filter { $0.grant == grant }.map(\.feature).joined(separator: ", ")
    }
}
