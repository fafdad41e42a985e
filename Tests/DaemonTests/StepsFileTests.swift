@testable import Daemon
import Foundation
import Glibc
import Testing

/// `[[sequence]] steps_file`: the steps — the secret — kept out of the config every local user
/// can read, in a file only its owner can, handed to the service by systemd (LoadCredential=).
@Suite(.serialized) struct StepsFileTests {
    static let steps = """
        steps = [{ gesture = "tap", region = "tl" }, { gesture = "tap", region = "br" }]

        """

    static func config(_ path: String) -> String {
        """
        [[region]]
        name = "tl"
        rect = [0, 0, 0.1, 0.1]
        [[region]]
        name = "br"
        rect = [0.9, 0.9, 1, 1]
        [[mode]]
        name = "locked"
        [[mode]]
        name = "open"
        [[sequence]]
        name = "unlock"
        steps_file = "\(path)"
        in_mode = "locked"
        switch_mode = "open"

        """
    }

    /// A file with `text`, mode `mode`, in a fresh directory.
    static func file(_ text: String, mode: mode_t) throws -> String {
        let dir = NSTemporaryDirectory() + "gestured-steps-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = dir + "/unlock.steps"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, mode)
        return path
    }

    func errors(_ text: String) throws -> [String] {
        let e = try requireThrown(ConfigErrors.self) { try ConfigLoader().parse(text, file: "f.toml") }
        return e.errors.map(\.description)
    }

    @Test func stepsAreReadFromAFileOnlyItsOwnerCanRead() throws {
        let path = try Self.file(Self.steps, mode: 0o600)
        let c = try ConfigLoader().parse(Self.config(path), file: "f.toml")
        let q = try #require(c.modes.sequences.first)
        #expect(q.steps.map(\.region) == ["tl", "br"] && q.binding.filter.region == "br")
        // The regions the steps name are held on passed-through devices, as with inline steps.
        #expect(q.regions == ["tl", "br"])
    }

    @Test func aFileOthersCanReadIsRefused() throws {
        for (mode, who) in [(0o644 as mode_t, "its group and others"), (0o640, "its group"), (0o604, "others")] {
            let path = try Self.file(Self.steps, mode: mode)
            #expect(try errors(Self.config(path)) == [
                "f.toml:13: sequence[1].steps_file: \(path) is open to \(who) (mode \(String(mode, radix: 8))): the steps are the secret; "
                    + "make it readable by its owner only (chmod 600; systemd hands it to the service)"])
        }
    }

    @Test func badStepsAreNamedInTheirOwnFile() throws {
        let path = try Self.file("steps = [{ gesture = \"tap\", region = \"tl\" },\n  { gesture = \"lasso\" }]\nextra = 1\n", mode: 0o600)
        let e = try errors(Self.config(path))
        #expect(e.count == 2 && e[0].hasPrefix(#"\#(path):1: steps[2].gesture: unknown gesture "lasso""#)
                && e[1].hasPrefix("\(path):3: extra: unknown key"), "\(e)")
        #expect(try errors(Self.config(path).replacingOccurrences(of: "steps_file", with: "steps_file = \"/x\"\nsteps")).contains {
            $0.contains("steps_file: give steps or steps_file, not both") } == true)
        #expect(try errors(Self.config("relative.steps")) == ["f.toml:13: sequence[1].steps_file: must be an absolute path"])
    }

    /// The generator asks systemd to hand the file over, read as root: the file stays 0600 root's.
    @Test func theGeneratorHandsTheFileOver() throws {
        let path = try Self.file(Self.steps, mode: 0o600)
        let dir = NSTemporaryDirectory() + "gestured-gen-" + UUID().uuidString.prefix(8)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let dropIn = try GeneratorTests.generate(Self.config(path), in: dir)
        #expect(dropIn.contains("LoadCredential=sequence-1-steps:\(path)\n"), "\(dropIn)")
        #expect(UnitVocabulary.refusal("LoadCredential=sequence-1-steps:\(path)") == nil)
        #expect(UnitVocabulary.refusal("LoadCredential=sequence-x-steps:\(path)") != nil)
        #expect(UnitVocabulary.refusal("LoadCredential=../../etc:\(path)") != nil)
    }

    /// Inside the unit the service reads what systemd handed over (`$CREDENTIALS_DIRECTORY`),
    /// not the file, which it may not be able to open: here the two differ, and the credential's
    /// steps (two circles) are the ones that unlock.
    @Test func theServiceReadsTheCredential() throws {
        let path = try Self.file(Self.steps, mode: 0o600)
        let credentials = NSTemporaryDirectory() + "gestured-creds-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: credentials, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: credentials) }
        try "steps = [{ gesture = \"circle\" }, { gesture = \"circle\" }]\n".write(toFile: credentials + "/sequence-1-steps", atomically: true, encoding: .utf8)
        let d = try DaemonHarness(config: "[socket]\nmode = \"0600\"\n" + Self.config(path), replays: [DaemonHarness.circleRecording],
                                  environment: ["CREDENTIALS_DIRECTORY": credentials])
        let c = try d.connect()
        try d.replayAndWait(c)
        try d.replayAndWait(c)
        let deadline = Date().addingTimeInterval(5)
        var mode: String?
        repeat {
            mode = (try c.command(#"{"status":true}"#)["status"] as? [String: Any])?["mode"] as? String
        } while mode != "open" && Date() < deadline && usleep(50_000) == 0
        #expect(mode == "open", "\(d.log)")
    }
}
