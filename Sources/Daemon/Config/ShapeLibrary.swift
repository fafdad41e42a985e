import GestureKit
import Glibc

/// The taught shapes of a config: `[shapes] dir` (relative to the config file), every `*.shape`
/// file in it (ShapeFile), and the per-shape settings `[shapes.NAME] threshold, rotate`.
public struct ShapesConfig: Sendable {
    /// Absolute or relative to the working directory (already resolved against the config file).
    public var directory: String?
    /// Read from `directory` by the resolve step (ConfigResolver).
    public var shapes: [TaughtShape] = []
    /// `[shapes.NAME]`: what the config sets for one shape, applied when the shapes are read.
    public var settings: [String: ShapeSettings] = [:]

    public init(directory: String? = nil, shapes: [TaughtShape] = []) {
        self.directory = directory
        self.shapes = shapes
    }

    public var names: Set<String> { Set(shapes.map(\.name)) }
}

/// `[shapes.NAME] threshold, rotate`: nil where the file's own value stands.
public struct ShapeSettings: Sendable {
    public var threshold: Double?
    public var rotate: Bool?
}

/// Reading shape files and directories of them.
public enum ShapeLibrary {
    /// More shape files than this in one directory is a mistake (and would slow every stroke).
    public static let maxShapes = 64

    /// One shape file; its `name` must be its file name without `.shape`.
    public static func read(path: String) throws(ConfigError) -> TaughtShape {
        let data: [UInt8]
        switch FileSystem.regularFile(atPath: path, maxBytes: ShapeFile.maxBytes) {
        case .success(let d): data = d
        case .failure(let e): throw ConfigError(file: path, line: 0, key: "", message: e.description)
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            throw ConfigError(file: path, line: 1, key: "", message: "not UTF-8 text")
        }
        let shape: TaughtShape
        do {
            shape = try ShapeFile.parse(text)
        } catch {
            throw ConfigError(file: path, line: error.line, key: "", message: error.message)
        }
        let stem = stem(of: path)
        guard shape.name == stem else {
            throw ConfigError(file: path, line: nameLine(text), key: "",
                              message: "the shape is named \"\(shape.name)\" but the file \"\(stem).shape\"; they must agree")
        }
        return shape
    }

    /// Every `*.shape` file in `directory`, by name; the errors of those that are malformed. A
    /// shape whose file has no threshold (version 1, or 2: a threshold of the 32-point matching) is calibrated against the others here.
    public static func load(directory: String) -> (shapes: [TaughtShape], errors: [ConfigError]) {
        guard let names = FileSystem.entries(ofDirectory: directory) else {
            return ([], [ConfigError(file: directory, line: 0, key: "", message: "cannot read the directory")])
        }
        let files = names.filter { $0.hasSuffix(".shape") && $0.utf8.count > 6 }.sorted()
        guard files.count <= maxShapes else {
            return ([], [ConfigError(file: directory, line: 0, key: "", message: "\(files.count) shape files; at most \(maxShapes)")])
        }
        var shapes: [TaughtShape] = []
        var errors: [ConfigError] = []
        for f in files {
            do {
                shapes.append(try read(path: directory + "/" + f))
            } catch {
                errors.append(error)
            }
        }
        return (calibratingUnset(shapes), errors)
    }

    /// Shapes read without a threshold get one calibrated against all of them; the rest keep theirs.
    static func calibratingUnset(_ shapes: [TaughtShape]) -> [TaughtShape] {
        shapes.indices.map { shapes[$0].thresholdOrigin == .default ? ShapeCalibration.calibrating($0, of: shapes) : shapes[$0] }
    }

    /// `dir/NAME.shape`.
    public static func path(of name: String, in directory: String) -> String {
        (directory.isEmpty ? "" : directory.hasSuffix("/") ? directory : directory + "/") + name + ".shape"
    }

    static func stem(of path: String) -> String {
        let base = path.split(separator: "/").last.map(String.init) ?? path
        return base.hasSuffix(".shape") ? String(base.dropLast(6)) : base
    }

    private static func nameLine(_ text: String) -> Int {
        var n = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            n += 1
            if line.drop(while: { $0 == " " || $0 == "\t" }).hasPrefix("name") { return n }
        }
        return 1
    }
}

extension ConfigLoader {
    /// `[shapes]`: `dir`, and `[shapes.NAME]` tables of `threshold` and `rotate`. The files are
    /// read by the resolve step.
    func readShapes(_ t: TableReader, configFile: String) -> ShapesConfig {
        var config = ShapesConfig()
        if let d = t.string("dir") {
            if d.isEmpty {
                t.error("dir", "must not be empty")
            } else {
                let base = FileSystem.directory(of: configFile)
                config.directory = d.hasPrefix("/") || base.isEmpty ? d : base + "/" + d
            }
        } else if !t.has("dir") {
            t.diagnostics.error(t.path, "[shapes] needs dir = \"…\" (the directory of the *.shape files)")
        }
        for key in t.keys where key != "dir" {
            guard let s = t.table(key) else { continue }
            config.settings[key] = ShapeSettings(threshold: s.number("threshold", in: 0...1), rotate: s.bool("rotate"))
            s.finish(expected: "threshold or rotate")
        }
        t.finish(expected: "dir, or a table [shapes.NAME] for a shape")
        return config
    }
}
