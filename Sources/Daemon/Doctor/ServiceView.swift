import Evdev
import Glibc

/// Who the service is, for the doctor's questions of access: the running daemon as it runs
/// (found through its socket's peer credentials), else gestured.service as systemd would start
/// it, else this process. The answer is the kernel's rule applied to that uid and those groups,
/// and the unit's device policy: only what the generator granted.
public struct ServiceView: Sendable {
    public var description: String
    /// The process's name (`gestured` for the daemon).
    public var name: String
    public var uid: uid_t
    public var groups: Set<gid_t>
    /// What gestured.service grants it (GESTURED_GRANTS); nil outside the unit or unknown.
    public var grants: Set<ServiceGrant>?
    public var pid: pid_t?
    /// The user to name in a fix ("usermod -aG input gdaemon").
    public var userName: String

    /// The process at the other end of a connected Unix socket.
    public static func peer(of fd: Int32) -> ServiceView? {
        var cred = [Int32](repeating: 0, count: 3)  // struct ucred: pid, uid, gid
        var length = socklen_t(MemoryLayout<Int32>.size * 3)
        let rc = cred.withUnsafeMutableBytes { getsockopt(fd, SOL_SOCKET, SO_PEERCRED, $0.baseAddress, &length) }
        guard rc == 0, cred[0] > 0 else { return nil }
        return process(pid: cred[0])
    }

    /// A running process, from /proc: its real uid, its groups, and the grants its environment
    /// names (readable by root and by the same user only).
    public static func process(pid: pid_t, proc: String = "/proc") -> ServiceView? {
        guard let status = FileSystem.contents(atPath: "\(proc)/\(pid)/status", maxBytes: 1 << 16) else { return nil }
        var uid: uid_t = 0
        var groups = Set<gid_t>()
        var name = "?"
        for line in String(decoding: status, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let key = fields.first else { continue }
            switch key {
            case "Name:": name = fields.dropFirst().joined(separator: " ")
            case "Uid:": uid = fields.dropFirst().first.flatMap { uid_t($0) } ?? 0
            case "Gid:": if let g = fields.dropFirst().first.flatMap({ gid_t($0) }) { groups.insert(g) }
            case "Groups:": groups.formUnion(fields.dropFirst().compactMap { gid_t($0) })
            default: break
            }
        }
        var grants: Set<ServiceGrant>?
        if let environ = FileSystem.contents(atPath: "\(proc)/\(pid)/environ", maxBytes: 1 << 20) {
            let prefix = ServiceGrant.environmentName + "="
            for entry in environ.split(separator: 0) {
                let text = String(decoding: entry, as: UTF8.self)
                if text.hasPrefix(prefix) { grants = ServiceSandbox.parse(String(text.dropFirst(prefix.count))) }
            }
        }
        let user = userName(uid)
        let under = grants.map { "under gestured.service, granted \(Self.names($0))" } ?? "outside gestured.service"
        return ServiceView(description: "\(name) (pid \(pid), user \(user), groups \(groupNames(groups))), \(under)", name: name,
                           uid: uid, groups: groups, grants: grants, pid: pid, userName: user)
    }

    /// gestured.service as systemd would start it now: a dynamic user in group `input`, and in
    /// the uinput group when the generator's drop-in grants /dev/uinput.
    public static func unit(granted: Set<ServiceGrant>) -> ServiceView {
        var groups = Set<gid_t>()
        if let g = getgrnam("input") { groups.insert(g.pointee.gr_gid) }
        if granted.contains(.uinput), let g = getgrnam(ServiceGrant.uinputGroup) { groups.insert(g.pointee.gr_gid) }
        // A dynamic user owns no device node: a uid no file has.
        return ServiceView(description: "gestured.service as systemd would start it (not running; groups \(groupNames(groups)), granted \(names(granted)))",
                           name: "gestured", uid: uid_t(Int32.max - 1), groups: groups, grants: granted, pid: nil, userName: "gestured-daemon")
    }

    /// This process, for a daemon run by hand.
    public static func thisProcess() -> ServiceView {
        var view = process(pid: getpid()) ?? ServiceView(description: "", name: "gestured", uid: getuid(), groups: [getgid()], grants: nil, pid: nil, userName: userName(getuid()))
        view.description = "this process (user \(view.userName), groups \(groupNames(view.groups)))"
        view.pid = nil
        return view
    }

    public func access(_ path: String, write: Bool) -> NodeAccess {
        NodeAccess.check(path, write: write, uid: uid, groups: groups)
    }

    static func userName(_ uid: uid_t) -> String { getpwuid(uid).map { String(cString: $0.pointee.pw_name) } ?? String(uid) }

    static func groupNames(_ groups: Set<gid_t>) -> String {
        let names = groups.sorted().map { g in getgrgid(g).map { String(cString: $0.pointee.gr_name) } ?? String(g) }
        return names.isEmpty ? "none" : names.joined(separator: ",")
    }

    static func names(_ grants: Set<ServiceGrant>) -> String {
        grants.isEmpty ? "nothing" : ServiceGrant.allCases.filter(grants.contains).map(\.rawValue).joined(separator: ",")
    }
}
