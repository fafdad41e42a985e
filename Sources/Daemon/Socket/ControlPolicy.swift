import CLinux
import Glibc

/// Who may control the kiosk through the socket: root, and the members of `[socket]
/// control_group`; every other client that can connect (the socket's mode and group decide that)
/// may subscribe and read status, and nothing else. Asked at each request, against the peer's uid
/// the kernel recorded when it connected (SO_PEERCRED) and that user's groups now (the group
/// database, not the connection's gid: a non-member who connects with the group as effective
/// group — `sg`, a setgid helper — does not control), so a user taken out of the group loses
/// control at their next request.
struct ControlPolicy {
    var group: String?

    /// The peer of a connected socket, as the kernel saw it at connect.
    struct Peer: Equatable {
        var pid: Int32
        var uid: uid_t
        var gid: gid_t

        init?(fd: Int32) {
            var p = gestured_peer()
            guard gestured_peer_credentials(fd, &p) == 0 else { return nil }
            (pid, uid, gid) = (p.pid, p.uid, p.gid)
        }
    }

    /// Why `peer` may not control, or nil when it may.
    func refusal(_ peer: Peer?) -> String? {
        guard let peer else { return "only root\(group.map { " or group \($0)" } ?? "") may control the kiosk (the peer's credentials are unknown)" }
        if peer.uid == 0 { return nil }
        if let g = group, let gid = getgrnam(g)?.pointee.gr_gid, Self.groups(of: peer).contains(gid) { return nil }
        return "uid \(peer.uid) may listen, not control: only root\(group.map { " and group \($0)" } ?? "") may switch modes, "
            + "disable or enable recognizers and replay ([socket] control_group)"
    }

    /// The groups the peer's user belongs to now: its primary group in the user database and
    /// its supplementary groups (getgrouplist). A uid with no user entry belongs to none.
    static func groups(of peer: Peer) -> [gid_t] {
        guard let pw = getpwuid(peer.uid), let name = pw.pointee.pw_name else { return [] }
        let primary = pw.pointee.pw_gid
        var count: Int32 = 64
        var list = [gid_t](repeating: 0, count: Int(count))
        if getgrouplist(name, primary, &list, &count) < 0 {
            list = [gid_t](repeating: 0, count: Int(count))
            guard getgrouplist(name, primary, &list, &count) >= 0 else { return [primary] }
        }
        return Array(list.prefix(Int(count)))
    }
}
