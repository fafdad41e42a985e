import Evdev
import Glibc

/// Whether a principal (a uid and its groups) may open a file, by its owner, group and mode —
/// the kernel's own rule for a process without capabilities, asked for another process.
public struct NodeAccess: Sendable, Equatable {
    public var exists: Bool
    public var allowed: Bool
    /// `root:input 0660`, or why the file could not be examined.
    public var describe: String
    /// The file's group, which a principal may be given to gain access.
    public var group: String?

    public static func check(_ path: String, write: Bool, uid: uid_t, groups: Set<gid_t>) -> NodeAccess {
        var st = stat()
        guard stat(path, &st) == 0 else {
            return NodeAccess(exists: false, allowed: false, describe: "\(Errno.current)", group: nil)
        }
        let user = getpwuid(st.st_uid).map { String(cString: $0.pointee.pw_name) } ?? String(st.st_uid)
        let group = getgrgid(st.st_gid).map { String(cString: $0.pointee.gr_name) } ?? String(st.st_gid)
        let mode = st.st_mode & 0o777
        let shift: UInt32 = uid == st.st_uid ? 6 : groups.contains(st.st_gid) ? 3 : 0
        let need: UInt32 = write ? 0o2 : 0o4
        let allowed = uid == 0 || (mode >> shift) & need != 0
        return NodeAccess(exists: true, allowed: allowed, describe: "\(user):\(group) 0\(String(mode, radix: 8))", group: group)
    }
}
