import Glibc

/// The process environment as a dictionary, read from `environ` (what Foundation's
/// ProcessInfo.environment gives, without linking Foundation). The first of repeated names wins,
/// as getenv(3) does.
public enum ProcessEnvironment {
    public static var current: [String: String] {
        var env: [String: String] = [:]
        for s in entries {
            if let eq = s.firstIndex(of: "=") {
                let name = String(s[..<eq])
                if env[name] == nil { env[name] = String(s[s.index(after: eq)...]) }
            }
        }
        return env
    }

    /// Every `NAME=value` entry of `environ`, in order: what a child's environment is made from.
    static var entries: [String] {
        var out: [String] = []
        var p = environ
        while let entry = p.pointee {
            out.append(String(cString: entry))
            p += 1
        }
        return out
    }

    /// The first directory systemd gives in `variable` (RUNTIME_DIRECTORY, STATE_DIRECTORY: a
    /// colon-separated list of absolute paths); nil outside systemd.
    static func serviceDirectory(_ variable: String, in environment: [String: String]) -> String? {
        guard let dirs = environment[variable], let dir = dirs.split(separator: ":").first, dir.hasPrefix("/") else { return nil }
        return String(dir)
    }
}
