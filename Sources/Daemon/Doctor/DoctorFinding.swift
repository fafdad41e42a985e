/// One line of `gestured doctor`: a check's verdict, what it found, and the fix in words (the
/// command to run, the key to add).
public struct DoctorFinding: Sendable, Equatable {
    public enum Verdict: Sendable, Equatable {
        case ok
        case wrong
        /// Not a fault: the check does not apply here (no `[mqtt]`, not under systemd).
        case note
    }

    public var verdict: Verdict
    public var text: String
    public var fix: String?

    public static func ok(_ text: String) -> DoctorFinding { DoctorFinding(verdict: .ok, text: text) }
    public static func wrong(_ text: String, fix: String) -> DoctorFinding { DoctorFinding(verdict: .wrong, text: text, fix: fix) }
    public static func note(_ text: String) -> DoctorFinding { DoctorFinding(verdict: .note, text: text) }

    public var line: String {
        switch verdict {
        case .ok: "✔ \(text)"
        case .wrong: "✖ \(text)" + (fix.map { "\n    fix: \($0)" } ?? "")
        case .note: "– \(text)"
        }
    }
}
