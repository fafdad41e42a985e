import Evdev
import Glibc

/// The service's sandbox against its config: the drop-in the systemd generator writes, and the
/// check (ExecStartPre, `gestured check-config`, a reload) that the running service was granted
/// what the config needs — said with the command that fixes it, rather than a failure at first use.
public enum ServiceSandbox {
    /// The drop-in for a config; nil when the config does not load: nothing is granted, and the
    /// unit's ExecStartPre reports the file's errors. Every line passes `UnitVocabulary` where
    /// it is written: a group of lines that does not (a grant's settings, a comment) is left out
    /// whole, and `refused` says why.
    public static func dropIn(_ config: DaemonConfig?, path: String) -> (text: String, refused: [String]) {
        var refused: [String] = []
        var out: [String] = []
        for group in dropInLines(config, path: path) {
            let reasons = group.compactMap(UnitVocabulary.refusal)
            if reasons.isEmpty { out += group } else { refused += reasons }
        }
        return (out.joined(separator: "\n") + "\n", refused)
    }

    /// The drop-in's lines in groups that stand or fall together: a grant's comment and settings.
    private static func dropInLines(_ config: DaemonConfig?, path: String) -> [[String]] {
        let header = [
            "# Written by gestured's systemd generator (gestured generate-units) from \(path),",
            "# at boot and at every `systemctl daemon-reload`: what the config needs beyond the sandbox",
            "# of gestured.service. Edit the config, not this file.",
        ]
        guard let config else {
            return [header, ["[Service]"], ["# The config does not load (`gestured check-config \(path)` says why): nothing granted.",
                            "Environment=\(ServiceGrant.environmentName)="]]
        }
        let needs = ServiceNeeds(config: config)
        var groups = [header, ["[Service]"]]
        // What is granted is what passes: a grant whose settings are refused is not named here either.
        let passing = needs.grants.filter { g in g.unitSettings(config).allSatisfy { UnitVocabulary.refusal($0) == nil } }
        groups.append(["Environment=\(ServiceGrant.environmentName)=\(passing.map(\.rawValue).joined(separator: ","))"])
        if needs.grants.isEmpty { groups.append(["# Nothing: the config uses no passthrough, keys, click or [mqtt]."]) }
        for grant in needs.grants {
            let comment = "# \(grant.what): \(needs.features(needing: grant))"
            groups.append(grant.unitSettings(config))
            // The comment alone may fail (it quotes the broker's host): the grant still stands.
            groups.insert([comment], at: groups.count - 1)
        }
        if let file = config.mqtt?.passwordFile {
            groups.append(["# the broker's password: systemd reads password_file as root and hands it over",
                           "LoadCredential=\(ServiceGrant.passwordCredential):\(file)"])
        }
        for q in config.modes.sequences {
            guard let f = q.stepsFile else { continue }
            groups.append(["# a secret sequence's steps: systemd reads steps_file as root and hands it over",
                           "LoadCredential=\(f.credential):\(f.path)"])
        }
        return groups
    }

    /// What this process's unit grants, from the variable the unit and drop-in set; nil when it
    /// runs outside gestured.service.
    public static func grantedToThisProcess() -> Set<ServiceGrant>? {
        ProcessEnvironment.current[ServiceGrant.environmentName].map(parse)
    }

    /// What the drop-in the generator last wrote grants; nil when there is none (no generator
    /// installed, or systemd has not run it).
    public static func grantedByGenerator(directory: String = ServiceGrant.generatorDirectory) -> Set<ServiceGrant>? {
        guard let bytes = FileSystem.contents(atPath: "\(directory)/\(ServiceGrant.dropInPath)", maxBytes: 65536) else { return nil }
        let prefix = "Environment=\(ServiceGrant.environmentName)="
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") where line.hasPrefix(prefix) {
            return parse(String(line.dropFirst(prefix.count)))
        }
        return []
    }

    static func parse(_ names: String) -> Set<ServiceGrant> {
        Set(names.split(separator: ",").compactMap { ServiceGrant(rawValue: String($0)) })
    }

    /// One sentence per need the service lacks, each ending with the command that fixes it.
    /// `probe`: also try what a grant should allow (open /dev/uinput for writing) — only inside
    /// the service, where the attempt meets the unit's real device policy and groups.
    public static func problems(_ needs: ServiceNeeds, granted: Set<ServiceGrant>, probe: Bool) -> [String] {
        needs.grants.compactMap { grant in
            let lead = "the config needs \(grant.what) (\(needs.features(needing: grant)))"
            if grant == .uinput && probe {
                let fd = open(ServiceGrant.uinputNode, O_WRONLY | O_CLOEXEC | O_NONBLOCK)
                if fd >= 0 { close(fd); return nil }
                let e = Errno.current
                if granted.contains(grant) && e.rawValue != EPERM {
                    return "\(lead), but opening \(ServiceGrant.uinputNode) fails: \(e)" + uinputAdvice(e)
                }
            } else if grant == .commands && probe && granted.contains(grant) {
                // Looked at, not connected to: a connection would start a runner that waits for a command.
                var st = stat()
                if stat(ServiceGrant.runnerSocket, &st) == 0 && (st.st_mode & S_IFMT) == S_IFSOCK { return nil }
                return "\(lead), but its socket \(ServiceGrant.runnerSocket) is not there: run `systemctl enable --now gestured-commands.socket`"
            } else if granted.contains(grant) {
                return nil
            }
            return "\(lead), which gestured.service is not granted: run `\(ServiceGrant.fix)`"
        }
    }

    private static func uinputAdvice(_ e: Errno) -> String {
        switch e.rawValue {
        case EACCES:
            " (the udev rule giving it to group \(ServiceGrant.uinputGroup) has not been applied): run "
                + "`modprobe uinput && udevadm trigger --settle --action=add /sys/class/misc/uinput && systemctl restart gestured`"
        case ENOENT, ENODEV, ENXIO: " (no uinput in this kernel?): run `modprobe uinput && systemctl restart gestured`"
        default: ""
        }
    }
}
