import Evdev
import GestureKit

/// The unistroke strokes of five people (the $1 recognizer's data set, Wobbrock et al., UIST
/// 2007): s01 in Tests/Fixtures/unistroke, s02–s05 in Tests/Fixtures/unistroke-s02-s05. Each
/// directory holds `<shape>.evemu` (one touch per stroke) and `<shape>.windows` (one line per
/// stroke: `start end subject/speed/name`, or `start end name` with the directory's subject).
/// Strokes are read through the real evemu parser and contact tracker.
public struct UnistrokeCorpus: Sendable {
    public static let shapes = [
        "arrow", "caret", "check", "circle", "delete_mark", "left_curly_brace", "left_sq_bracket", "pigtail",
        "question_mark", "rectangle", "right_curly_brace", "right_sq_bracket", "star", "triangle", "v", "x",
    ]

    /// A directory of the corpus and the subject its bare `start end name` lines belong to.
    public struct Source: Sendable {
        public var directory: String
        public var subject: String?
        public init(directory: String, subject: String? = nil) {
            self.directory = directory
            self.subject = subject
        }
    }

    /// The project's five people, under a fixtures root (default: run from the package root).
    public static func sources(fixtures: String = "Tests/Fixtures") -> [Source] {
        [Source(directory: fixtures + "/unistroke", subject: "s01"), Source(directory: fixtures + "/unistroke-s02-s05")]
    }

    public var strokes: [CorpusStroke]

    public init(strokes: [CorpusStroke]) { self.strokes = strokes }

    /// Every stroke of `shapes` (default: all 16) in `sources`, in file order.
    public static func load(_ sources: [Source] = sources(), shapes: [String] = shapes) throws(RecordingError) -> UnistrokeCorpus {
        var strokes: [CorpusStroke] = []
        for source in sources {
            for shape in shapes {
                strokes += try load(shape: shape, from: source)
            }
        }
        return UnistrokeCorpus(strokes: strokes)
    }

    /// Subjects present, sorted.
    public var subjects: [String] { Array(Set(strokes.map(\.subject))).sorted() }

    /// One line of a windows file.
    struct Window {
        var start: Double, end: Double, subject: String, speed: String, name: String, line: Int
    }

    static func windows(_ path: String, subject: String?) throws(RecordingError) -> [Window] {
        var out: [Window] = []
        var lineNumber = 0
        for raw in try TextFile.read(path).split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let fields = raw.split(separator: " ", omittingEmptySubsequences: true)
            if fields.isEmpty || fields[0].hasPrefix("#") { continue }
            guard fields.count == 3, let start = Double(fields[0]), let end = Double(fields[1]), start < end else {
                throw RecordingError(file: path, line: lineNumber, message: "expected `start end name` (seconds, start < end), got `\(raw)`")
            }
            let label = fields[2].split(separator: "/").map(String.init)
            switch label.count {
            case 3:
                out.append(Window(start: start, end: end, subject: label[0], speed: label[1], name: label[2], line: lineNumber))
            case 1:
                guard let subject else {
                    throw RecordingError(file: path, line: lineNumber, message: "`\(label[0])` names no subject (`subject/speed/name`) and the directory has none")
                }
                out.append(Window(start: start, end: end, subject: subject, speed: "", name: label[0], line: lineNumber))
            default:
                throw RecordingError(file: path, line: lineNumber, message: "stroke name `\(fields[2])` is neither `name` nor `subject/speed/name`")
            }
        }
        return out
    }

    /// The strokes of one shape file: each touch of the recording goes to the window its
    /// touch-down falls in; every window must get exactly one touch.
    static func load(shape: String, from source: Source) throws(RecordingError) -> [CorpusStroke] {
        let base = source.directory + "/" + shape
        let windows = try windows(base + ".windows", subject: source.subject)
        let recording = try Recording.load(path: base + ".evemu")
        var tracker = ContactTracker(info: recording.info)
        var touches: [[TouchFrame]] = []
        var current: [TouchFrame] = []
        for e in recording.events {
            tracker.feed(e) { frame in
                current.append(copy frame)
                if frame.downCount == 0 {
                    touches.append(current)
                    current = []
                }
            }
        }
        var strokes: [CorpusStroke] = []
        var next = 0
        for w in windows {
            guard next < touches.count, let t = touches[next].first?.time, t >= w.start, t <= w.end else {
                throw RecordingError(file: base + ".windows", line: w.line,
                                     message: "no touch of \(base).evemu begins in this window [\(w.start), \(w.end)]")
            }
            strokes.append(CorpusStroke(subject: w.subject, shape: shape, speed: w.speed, name: w.name, frames: touches[next]))
            next += 1
        }
        if next < touches.count {
            throw RecordingError(file: base + ".evemu", line: 0,
                                 message: "\(touches.count - next) touch(es) fall in no window of \(base).windows")
        }
        return strokes
    }
}
