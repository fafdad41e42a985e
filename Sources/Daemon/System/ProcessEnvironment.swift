import Glibc

/// The process environment as a dictionary, read from `environ` (what Foundation's
/// ProcessInfo.environment gives, without linking Foundation). The first of repeated names wins,
/// as getenv(3) does.
public enum ProcessEnvironment {
    public static var current: [String: String] {
        var env: [String: String] = [:]
        var p = environ
        while let entry = p.pointee {
            let s = String(cString: entry)
            if let eq = s.firstIndex(of: "=") {
                let name = String(s[..<eq])
                if env[name] == nil { env[name] = String(s[s.index(after: eq)...]) }
            }
            p += 1
        }
        return env
    }
}
