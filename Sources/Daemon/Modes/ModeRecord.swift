import Evdev

/// The kiosk's mode, kept where a crash, a `kill -9`, a restart or a package upgrade leaves it:
/// a file in the service's runtime directory (`$RUNTIME_DIRECTORY`, the unit's /run/gestured,
/// kept across restarts by RuntimeDirectoryPreserve=). /run is emptied at boot, so a boot starts
/// from the initial mode. Written atomically at every change; read once, at start. With a
/// `for`, the mode to go back to and when (CLOCK_MONOTONIC, which runs on across restarts of
/// the service within one boot), so a restart resumes what is left of it.
struct ModeRecord {
    let path: String

    struct Saved: Equatable {
        var mode: String
        var back: String?
        var at: Double?
        /// ModeState's floor: the closed mode an idle timeout or a wake may not leave it above.
        var floor: String? = nil
    }

    /// `$RUNTIME_DIRECTORY/mode` (its first directory when systemd gives several); nil outside systemd.
    init?(environment: [String: String]) {
        guard let dir = ProcessEnvironment.serviceDirectory("RUNTIME_DIRECTORY", in: environment) else { return nil }
        path = dir + "/mode"
    }

    init(path: String) { self.path = path }

    /// The saved mode; nil when there is none or the file is not one this wrote.
    func load() -> Saved? {
        guard case .success(let bytes) = FileSystem.regularFile(atPath: path, maxBytes: 4096),
              let text = String(validating: bytes, as: UTF8.self) else { return nil }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let mode = lines.first, !mode.isEmpty else { return nil }
        var saved = Saved(mode: mode)
        if lines.count > 1, !lines[1].isEmpty {
            let parts = lines[1].split(separator: "\t")
            guard parts.count == 2, let at = Double(parts[1]), at.isFinite else { return nil }
            (saved.back, saved.at) = (String(parts[0]), at)
        }
        if lines.count > 2, !lines[2].isEmpty { saved.floor = lines[2] }
        return saved
    }

    /// Writes the state; the error when it cannot.
    func save(_ state: ModeState) -> Errno? {
        var text = state.current.name + "\n"
        if let r = state.returnAt { text += "\(r.mode)\t\(r.time)\n" }
        if let f = state.floor { text += (state.returnAt == nil ? "\n" : "") + f + "\n" }
        do {
            try FileSystem.writeAtomically(Array(text.utf8), toPath: path)
            return nil
        } catch {
            return error
        }
    }
}
