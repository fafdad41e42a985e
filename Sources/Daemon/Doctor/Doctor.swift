import Evdev
import Glibc

/// `gestured doctor`: the questions an installer has about a kiosk, each answered on this
/// system as the service sees it, with the fix in words. Each check is a function of what it
/// looks at, so a test can point it at a temporary directory, a broker, a config.
public struct Doctor {
    public var configPath: String
    /// The socket to look for; nil: the config's, else the default.
    public var socketPath: String?
    public var generatorDirectory = ServiceGrant.generatorDirectory
    /// Seconds the broker may take to accept the connection.
    public var brokerTimeout: Double = 3
    /// Where `/proc` is (which processes have the clone open).
    public var proc = "/proc"

    public init(configPath: String, socketPath: String? = nil) {
        self.configPath = configPath
        self.socketPath = socketPath
    }

    /// Every check, in the order an installer asks them.
    public func run() -> [DoctorFinding] {
        var findings: [DoctorFinding] = []
        let config: DaemonConfig
        do {
            config = try ConfigLoader().load(path: configPath)
            findings.append(.ok("config \(configPath) loads: \(config.bindings.count) bindings"))
        } catch {
            findings.append(.wrong("config \(configPath) does not load:\n" + indent("\(error)"),
                                   fix: "correct the lines named above (`gestured check-config \(configPath)` checks again)"))
            return findings + socketFindings(path: socketPath ?? UnixListener.defaultSocketPath(environment: ProcessEnvironment.current), config: nil).findings
        }
        let socket = socketFindings(path: socketPath ?? config.socket.path ?? UnixListener.defaultSocketPath(environment: ProcessEnvironment.current),
                                    config: config.socket)
        let view = socket.daemon ?? Self.serviceView(generatorDirectory: generatorDirectory)
        findings.append(.note("checking access as \(view.description)"))
        let devices = deviceFindings(config: config, view: view)
        findings += devices.findings
        findings += uinputFindings(config: config, view: view)
        findings += generatorFindings(config: config, view: view)
        findings += socket.findings
        findings += brokerFindings(config: config)
        findings += screenFindings(config: config, view: view)
        findings += cloneFindings(devices.passedThrough, daemon: socket.daemon?.pid)
        return findings
    }

    /// The service when it is not running: as systemd would start it where gestured.service is
    /// installed, else this process.
    static func serviceView(generatorDirectory: String) -> ServiceView {
        if access("/run/systemd/system", F_OK) == 0, let granted = ServiceSandbox.grantedByGenerator(directory: generatorDirectory) {
            return .unit(granted: granted)
        }
        return .thisProcess()
    }

    // MARK: devices

    /// Each touch device: found as what and why, and whether the service may open it. Returns
    /// the names of those passed through (their clones are checked last).
    func deviceFindings(config: DaemonConfig, view: ServiceView) -> (findings: [DoctorFinding], passedThrough: [String]) {
        let monitor = DeviceMonitor()
        let candidates = monitor.enumerate()
        guard !candidates.isEmpty else {
            return ([.wrong("no touchscreen or touchpad found" + (monitor.notice.map { " (\($0))" } ?? ""),
                            fix: "plug it in; `libinput list-devices` must list it and `udevadm info /dev/input/eventN` must show "
                                + "ID_INPUT_TOUCHSCREEN=1 (or ID_INPUT_TOUCHPAD=1), which udev sets from its capabilities or a hwdb entry")], [])
        }
        var findings: [DoctorFinding] = []
        var passedThrough: [String] = []
        for c in candidates {
            let why = monitor.mode == .udev
                ? "udev " + DeviceMonitor.touchProperties.filter { c.properties[$0] == "1" }.map { "\($0)=1" }.joined(separator: ", ")
                : "classified from its capabilities (no udev)"
            if let device = try? EvdevDevice(devnode: c.devnode, properties: c.properties) {
                let i = device.info
                let settings = config.settings(for: i.identity).settings
                let passthrough = PipelineFactory.passthroughRules(settings, info: i, config: config) != nil
                if passthrough { passedThrough.append(i.name) }
                findings.append(.ok("\(c.devnode) \"\(i.name)\": \(i.kind.rawValue) (\(why)), \(i.slotCount) slots"
                                    + (passthrough ? ", passed through" : "")))
                if passthrough, let refusal = PipelineFactory.passthroughUnsupported(i) {
                    findings.append(.wrong("\(c.devnode): \(refusal)", fix: "set `passthrough = false` for it in a [[device]] section of \(configPath)"))
                } else if passthrough {
                    findings.append(Self.failsClosed(c))
                }
            } else {
                findings.append(.ok("\(c.devnode): touch device (\(why)); this user cannot open it to say more (run the doctor as root)"))
            }
            let a = view.access(c.devnode, write: false)
            if a.allowed {
                findings.append(.ok("the service may read \(c.devnode) (\(a.describe))"))
            } else {
                let group = a.group ?? "input"
                findings.append(.wrong("the service (user \(view.userName)) may not read \(c.devnode) (\(a.describe))",
                                       fix: group == "input"
                                           ? "put the service's user in group input (`usermod -aG input \(view.userName)`; gestured.service has SupplementaryGroups=input)"
                                           : "give the node to group input with a udev rule: `SUBSYSTEM==\"input\", KERNEL==\"event*\", ENV{ID_INPUT_TOUCHSCREEN}==\"1\", GROUP=\"input\", MODE=\"0660\"` in /etc/udev/rules.d/, then `udevadm trigger`"))
            }
        }
        return (findings, passedThrough)
    }

    /// A passed-through device is hidden from libinput by gestured's udev rule, so that no
    /// compositor reads the raw panel while gestured is down (61-gestured-passthrough.rules).
    static func failsClosed(_ c: DeviceCandidate) -> DoctorFinding {
        if c.properties["LIBINPUT_IGNORE_DEVICE"] == "1" {
            return .ok("\(c.devnode) is hidden from libinput (LIBINPUT_IGNORE_DEVICE=1): while gestured is down the app gets no touch, never the raw panel")
        }
        return .wrong("\(c.devnode) is not hidden from libinput: while gestured is down (a crash, a restart, an upgrade) the compositor reads the raw panel, whatever the mode",
                      fix: "install gestured's udev rule 61-gestured-passthrough.rules (the package and `make install` do), "
                          + "then `udevadm trigger --subsystem-match=input` and restart the compositor")
    }

    // MARK: /dev/uinput and the generator

    func uinputFindings(config: DaemonConfig, view: ServiceView) -> [DoctorFinding] {
        let needs = ServiceNeeds(config: config)
        guard needs.grants.contains(.uinput) else { return [.note("/dev/uinput not needed (no passthrough, keys or click)")] }
        let why = needs.features(needing: .uinput)
        if let grants = view.grants, !grants.contains(.uinput) {
            return [.wrong("the config needs /dev/uinput (\(why)), which gestured.service is not granted",
                           fix: "run `\(ServiceGrant.fix)` (the generator grants it from the config)")]
        }
        let a = view.access(ServiceGrant.uinputNode, write: true)
        if !a.exists {
            return [.wrong("the config needs /dev/uinput (\(why)), which does not exist (\(a.describe))",
                           fix: "run `modprobe uinput` (and add uinput to /etc/modules-load.d/ for the next boot)")]
        }
        if !a.allowed {
            return [.wrong("the config needs /dev/uinput (\(why)), which the service (user \(view.userName)) may not write (\(a.describe))",
                           fix: a.group == ServiceGrant.uinputGroup
                               ? "put the service's user in group \(ServiceGrant.uinputGroup) (gestured.service gets it from the generator: `\(ServiceGrant.fix)`)"
                               : "apply the package's udev rule giving it to group \(ServiceGrant.uinputGroup): `udevadm trigger --settle --action=add /sys/class/misc/uinput`")]
        }
        return [.ok("the service may write /dev/uinput (\(a.describe)) for \(why)")]
    }

    /// Whether the generator's drop-in grants what this config needs: a config edited after the
    /// last `systemctl daemon-reload` may need more. And whether the running service has what the
    /// drop-in grants (a restart missing).
    public func generatorFindings(config: DaemonConfig, view: ServiceView?) -> [DoctorFinding] {
        let needs = ServiceNeeds(config: config)
        guard let dropIn = ServiceSandbox.grantedByGenerator(directory: generatorDirectory) else {
            if access("/run/systemd/system", F_OK) == 0 && access("\(generatorDirectory)/..", F_OK) == 0 && Self.unitInstalled() {
                return [.wrong("gestured.service is installed but \(generatorDirectory)/\(ServiceGrant.dropInPath) is missing: its generator has not run",
                               fix: "run `\(ServiceGrant.fix)` (the generator is /usr/lib/systemd/system-generators/gestured-generator)")]
            }
            return [.note("not run by systemd here (no \(generatorDirectory)/\(ServiceGrant.dropInPath)): nothing to grant")]
        }
        let missing = needs.grants.filter { !dropIn.contains($0) }
        if !missing.isEmpty {
            let what = missing.map { "\($0.what) (\(needs.features(needing: $0)))" }.joined(separator: ", ")
            return [.wrong("the generator's drop-in grants \(ServiceView.names(dropIn)); the config needs \(what) too: a `systemctl daemon-reload` is missing",
                           fix: "run `\(ServiceGrant.fix)`")]
        }
        if let running = view?.grants, view?.pid != nil, !dropIn.isSubset(of: running) {
            return [.wrong("the running service was granted \(ServiceView.names(running)), the drop-in grants \(ServiceView.names(dropIn)): it started before the last daemon-reload",
                           fix: "run `systemctl restart gestured`")]
        }
        return [.ok("the generator's drop-in grants what the config needs (\(ServiceView.names(Set(needs.grants))))")]
    }

    static func unitInstalled() -> Bool {
        ["/etc/systemd/system", "/usr/local/lib/systemd/system", "/usr/lib/systemd/system", "/lib/systemd/system"]
            .contains { access("\($0)/gestured.service", F_OK) == 0 }
    }

    // MARK: the socket

    /// Whether the socket is where apps look, with which owner, group and mode, and whether the
    /// daemon answers there; the daemon found is the service's view.
    func socketFindings(path: String, config: SocketConfig?) -> (findings: [DoctorFinding], daemon: ServiceView?) {
        var st = stat()
        guard stat(path, &st) == 0 else {
            return ([.wrong("no socket at \(path), where apps look (\(Errno.current))",
                            fix: "start the daemon: `systemctl start gestured` (an app looking elsewhere: set [socket] path in \(configPath))")], nil)
        }
        guard st.st_mode & S_IFMT == S_IFSOCK else {
            return ([.wrong("\(path) is not a socket", fix: "remove it and restart the daemon: `rm \(path) && systemctl restart gestured`")], nil)
        }
        let a = NodeAccess.check(path, write: true, uid: getuid(), groups: [])
        var findings: [DoctorFinding] = []
        if let wanted = config?.group, a.group != wanted {
            findings.append(.wrong("socket \(path) is \(a.describe), the config's group is \(wanted)",
                                   fix: "restart the daemon so it sets the group: `systemctl restart gestured`"))
        }
        let fd = UnixConnection.connect(path: path)
        guard fd >= 0 else {
            let e = Errno.current
            switch e.rawValue {
            case EACCES:
                findings.append(.wrong("socket \(path) (\(a.describe)): this user (\(ServiceView.userName(getuid()))) may not connect",
                                       fix: "put the app's user in group \(a.group ?? "?"): `usermod -aG \(a.group ?? "?") USER` (then log in again)"))
            default:
                findings.append(.wrong("socket \(path) (\(a.describe)): nobody answers (\(e)): the daemon is not running",
                                       fix: "`systemctl restart gestured` (`journalctl -u gestured` says why it stopped)"))
            }
            return (findings, nil)
        }
        defer { close(fd) }
        let peer = ServiceView.peer(of: fd)
        // Socket activation: systemd holds the socket (gestured.socket) and starts the service
        // at a connection; the service is then not the peer.
        guard let daemon = peer, daemon.name == "gestured" else {
            findings.append(.ok("socket \(path) (\(a.describe)) is held by \(peer.map { "\($0.name) (pid \($0.pid ?? 0))" } ?? "another process") "
                                + "for the service (socket activation); apps connect as its owner or in group \(a.group ?? "?")"))
            return (findings, nil)
        }
        findings.append(.ok("socket \(path) (\(a.describe)): the daemon answers (pid \(daemon.pid ?? 0)); apps connect as its owner or in group \(a.group ?? "?")"))
        if let status = Self.status(of: fd) { findings += Self.latencyFindings(status: status) }
        return (findings, daemon)
    }

    // MARK: the broker, the screen, the clone

    public func brokerFindings(config: DaemonConfig) -> [DoctorFinding] {
        guard let m = config.mqtt else { return [.note("no [mqtt]: no broker to reach")] }
        let url = "\(m.tls ? "mqtts" : "mqtt")://\(m.host):\(m.port)"
        guard let refusal = BrokerProbe.refusal(m, timeout: brokerTimeout) else {
            return [.ok("the broker \(url) accepts us\(m.username.map { " as \($0)" } ?? "")")]
        }
        return [.wrong("the broker \(url) does not accept us: \(refusal)",
                       fix: "is the broker running and reachable from here? check url, username and password_file in [mqtt] of \(configPath)")]
    }

    func screenFindings(config: DaemonConfig, view: ServiceView) -> [DoctorFinding] {
        guard let path = config.modes.screen.state else { return [.note("no [screen] state: the screen's state is not read")] }
        let a = view.access(path, write: false)
        guard a.allowed, let bytes = FileSystem.contents(atPath: path, maxBytes: 256) else {
            return [.wrong("the screen's state file \(path) cannot be read by the service (\(a.describe))",
                           fix: "set [screen] state in \(configPath) to a connector's dpms or a backlight's bl_power: `ls /sys/class/drm/*/dpms /sys/class/backlight/*/bl_power`")]
        }
        var text = String(decoding: bytes, as: UTF8.self)
        while text.hasSuffix("\n") { text.removeLast() }
        return [.ok("the screen's state file \(path) reads \"\(text)\"")]
    }

    /// For each device passed through: its clone exists and a process other than the daemon
    /// (the compositor) has it open.
    func cloneFindings(_ names: [String], daemon: pid_t?) -> [DoctorFinding] {
        names.map { name in
            guard let node = TouchClone.node(forDeviceNamed: name) else {
                return .wrong("\"\(name)\" is passed through but has no clone: the daemon is not running or could not make it",
                              fix: "`journalctl -u gestured` says why; `gestured devices` lists the clone once it exists")
            }
            guard getuid() == 0 else { return .note("the clone \(node) of \"\(name)\" exists; run the doctor as root to see who reads it") }
            let readers = Self.holders(of: node, proc: proc).filter { $0.pid != daemon }
            if readers.isEmpty {
                return .wrong("nothing reads the clone \(node) of \"\(name)\": the app sees no touch",
                              fix: "restart the compositor after gestured (it must open the clone; `libinput list-devices` lists it as \"\(TouchClone.name(for: name))\")")
            }
            return .ok("the clone \(node) of \"\(name)\" is open by " + readers.map { "\($0.name) (pid \($0.pid))" }.joined(separator: ", "))
        }
    }

    /// The processes with `node` open, from their file descriptors in /proc.
    static func holders(of node: String, proc: String) -> [(pid: pid_t, name: String)] {
        var out: [(pid: pid_t, name: String)] = []
        for entry in FileSystem.entries(ofDirectory: proc) ?? [] {
            guard let pid = pid_t(entry), let fds = FileSystem.entries(ofDirectory: "\(proc)/\(entry)/fd") else { continue }
            var buffer = [CChar](repeating: 0, count: 4096)
            let holds = fds.contains { fd in
                let n = readlink("\(proc)/\(entry)/fd/\(fd)", &buffer, buffer.count - 1)
                return n > 0 && String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) == node
            }
            if holds {
                var name = FileSystem.contents(atPath: "\(proc)/\(entry)/comm", maxBytes: 64).map { String(decoding: $0, as: UTF8.self) } ?? "?"
                while name.hasSuffix("\n") { name.removeLast() }
                out.append((pid, name))
            }
        }
        return out
    }

    private func indent(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n")
    }
}
