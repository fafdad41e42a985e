import Glibc

/// Groups of this system (the socket's group is checked when the config is, not at bind).
enum SystemGroup {
    static func exists(_ name: String) -> Bool { getgrnam(name) != nil }
}
