import Glibc

/// Shell-style patterns (`*`, `?`, `[…]`) for device names and properties, via fnmatch(3).
public enum Glob {
    public static func matches(_ pattern: String, _ text: String) -> Bool {
        fnmatch(pattern, text, 0) == 0
    }
}
