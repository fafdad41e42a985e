import Glibc

/// What the root-run generator may write into a unit file, checked line by line where the
/// drop-in is written rather than trusted from the config reader: a section header, a comment of
/// plain words, and settings whose values come from a fixed vocabulary — grant names, group
/// names, device paths, address families, addresses that parse. A line outside it is never
/// written (systemd would read it as a directive of root's own).
public enum UnitVocabulary {
    /// The reason `line` may not be written, or nil when it may.
    public static func refusal(_ line: String) -> String? {
        if line == "[Service]" { return nil }
        if line.hasPrefix("#") {
            // A comment ends at its line; one ending in a backslash would be continued onto the next.
            guard line.unicodeScalars.allSatisfy(isCommentCharacter), !line.hasSuffix("\\") else {
                return "a comment with a character outside printable ASCII"
            }
            return nil
        }
        guard let eq = line.firstIndex(of: "=") else { return "neither a section, a comment nor a setting" }
        let key = String(line[..<eq]), value = String(line[line.index(after: eq)...])
        let ok: Bool
        switch key {
        case "Environment":
            let prefix = ServiceGrant.environmentName + "="
            ok = value.hasPrefix(prefix)
                && value.dropFirst(prefix.count).split(separator: ",").allSatisfy { ServiceGrant(rawValue: String($0)) != nil }
        case "SupplementaryGroups": ok = isGroupName(value)
        case "DeviceAllow":
            let parts = value.split(separator: " ", omittingEmptySubsequences: false)
            ok = parts.count == 2 && isDevicePath(String(parts[0])) && ["r", "rw", "w"].contains(parts[1])
        case "RestrictAddressFamilies":
            ok = value.split(separator: " ", omittingEmptySubsequences: false).allSatisfy { families.contains(String($0)) }
        case "IPAddressAllow": ok = value == "any" || value == "localhost" || isAddress(value)
        case "LoadCredential":
            // A credential gestured asks for (the broker's password, a sequence's steps) from a plain path.
            let parts = value.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            ok = parts.count == 2 && ServiceGrant.isCredential(parts[0]) && parts[1].hasPrefix("/") && isPlainPath(String(parts[1]))
        default: ok = false
        }
        return ok ? nil : "\(key.unicodeScalars.allSatisfy(isCommentCharacter) ? key : "a setting") outside the vocabulary"
    }

    static let families: Set<String> = ["AF_UNIX", "AF_NETLINK", "AF_INET", "AF_INET6"]

    /// A group name as shadow-utils takes it: [a-z_][a-z0-9_-]*, at most 32 bytes.
    static func isGroupName(_ s: String) -> Bool {
        guard let first = s.unicodeScalars.first, s.utf8.count <= 32, first == "_" || ("a"..."z").contains(first) else { return false }
        return s.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "-" }
    }

    /// An absolute path under /dev of letters, digits and `/_-.`, with no `..`.
    static func isDevicePath(_ s: String) -> Bool { s.hasPrefix("/dev/") && isPlainPath(s) }

    /// An absolute path of letters, digits and `/_-.` only (no space, quote, `%` specifier or
    /// backslash systemd would interpret), with no `..`.
    static func isPlainPath(_ s: String) -> Bool {
        s.hasPrefix("/") && !s.contains("..") && s.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "/_-.".unicodeScalars.contains($0)
        }
    }

    static func isAddress(_ s: String) -> Bool {
        var buffer = in6_addr()
        return inet_pton(AF_INET, s, &buffer) == 1 || inet_pton(AF_INET6, s, &buffer) == 1
    }

    private static func isCommentCharacter(_ c: Unicode.Scalar) -> Bool { (0x20...0x7e).contains(c.value) }
}
