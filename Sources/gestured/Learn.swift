import ArgumentParser
import Daemon
import Evdev
import GestureKit
import Glibc

/// `gestured learn NAME`: teaches a shape by example. Every one-finger stroke of the recordings,
/// or N strokes drawn live on a device, becomes an example in `DIR/NAME.shape` (appended when
/// the file exists). Each stroke gets a one-line verdict.
struct Learn: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "learn",
        abstract: "Teach a shape by example: from recordings, or drawn live on a device.",
        discussion: """
            gestured learn zorro rec1.evemu rec2.evemu       every one-finger stroke is an example
            gestured learn zorro --device 'Wacom*' --count 5  draw 5 strokes on the device
            The shape goes to DIR/NAME.shape, DIR being --out or the config's [shapes] dir; \
            examples are appended to an existing file. Bind it with [[bind]] gesture = "shape", shape = "NAME".
            """)

    @Argument(help: "The shape's name (letters, digits, _ and -).")
    var name: String

    @Argument(help: "Recordings (evemu or libinput record) whose strokes are the examples.")
    var recordings: [String] = []

    @Option(name: .long, help: "Directory to write NAME.shape to (default: the config's [shapes] dir).")
    var out: String?

    @Option(name: .long, help: "Configuration file: its [shapes] dir, and the device's rotation and calibration.")
    var config = "/etc/gestured/gestures.toml"

    @Option(name: .long, help: "Draw live on the device whose name, id or node matches this glob.")
    var device: String?

    @Option(name: .long, help: "Strokes to draw live.")
    var count = 5

    @Option(name: .long, help: "Seconds to wait for the live strokes before giving up.")
    var timeout = 300.0

    @Option(name: .long, help: "Smallest stroke, mm (longer side of its box): the shape recognizer's min_size_mm.")
    var minSize = ShapeRules().minSizeMM

    @Option(name: .long, help: "Who draws these strokes (letters, digits, _ or -): with examples of several people, the threshold allows for how differently people draw the shape.")
    var person: String?

    func validate() throws {
        guard TaughtShape.isValidName(name) else { throw ValidationError("\"\(name)\": a shape name is 1–64 letters, digits, _ or -") }
        guard (device == nil) != recordings.isEmpty else { throw ValidationError("give recordings, or --device PATTERN for live strokes (not both)") }
        guard (1...ShapeFile.maxExamples).contains(count) else { throw ValidationError("--count must be within 1…\(ShapeFile.maxExamples)") }
        if let person, !TaughtShape.isValidName(person) { throw ValidationError("--person \"\(person)\": a person is 1–64 letters, digits, _ or -") }
        guard timeout > 0, timeout <= 86_400 else { throw ValidationError("--timeout must be within 0…86400 s") }
        if let p = ShapeRules.parameter(\.minSizeMM), !p.range.contains(minSize) {
            throw ValidationError("--min-size must be within \(p.range.lowerBound)…\(p.range.upperBound) mm")
        }
    }

    func run() throws {
        let loaded = try? ConfigLoader().load(path: config)
        guard let dir = out ?? loaded?.shapes.directory else {
            throw LearnFailure("no --out, and \(config) \(loaded == nil ? "cannot be loaded" : "has no [shapes] dir"): where should \(name).shape go?")
        }
        guard FileSystem.createDirectories(dir) else { throw LearnFailure("\(dir): cannot create the directory") }
        var book = try ShapeBook(name: name, directory: dir, person: person ?? "")
        if let device {
            try learnLive(pattern: device, config: loaded, book: &book)
        } else {
            for path in recordings { try learn(recording: path, config: loaded, book: &book) }
            guard book.added > 0 else { throw LearnFailure("no usable one-finger stroke in the recordings: \(book.path) left as it was") }
            try book.save()
            StandardStream.writeOutput(book.findings())
        }
        StandardStream.writeOutput("\(book.path): \(book.shape.examples.count) example\(book.shape.examples.count == 1 ? "" : "s") (\(book.added) new)\n")
        StandardStream.writeOutput(book.teachersReport())
        if let set = loaded?.shapes.shapes.first(where: { $0.name == name }), set.thresholdOrigin == .set {
            StandardStream.writeOutput("note: \(config) sets [shapes.\(name)] threshold = \(Learn.score(set.threshold)), which the daemon uses instead\n")
        }
    }

    private func learn(recording path: String, config: DaemonConfig?, book: inout ShapeBook) throws {
        let recording: Recording
        do {
            recording = try Recording.load(path: path)
        } catch {
            throw LearnFailure(error.description)
        }
        let transform = config.map { PipelineFactory.transform(info: recording.info, config: $0, warn: Self.note) } ?? .identity
        let file = path.split(separator: "/").last.map(String.init) ?? path
        for (i, touch) in RecordedStrokes.touches(recording, minSizeMM: minSize, transform: transform).enumerated() {
            let line = book.take(touch.verdict, source: "\(file) stroke \(i + 1)")
            StandardStream.writeOutput("\(file) stroke \(i + 1) at \(Self.seconds(touch.time)) s: \(line)\n")
        }
    }

    private func learnLive(pattern: String, config: DaemonConfig?, book: inout ShapeBook) throws {
        let device = try Self.open(pattern)
        let transform = config.map { PipelineFactory.transform(info: device.info, config: $0, warn: Self.note) } ?? .identity
        var tracker = ContactTracker(info: device.info, transform: transform, initialSlots: device.slotSnapshot())
        let collector = StrokeCollector(minSizeMM: minSize)
        let start = Self.now()
        var taken = 0
        StandardStream.writeOutput("\(device.info.name): draw \(name) with one finger (\(count) times)\n")
        StandardStream.writeOutput("draw \(name) (1 of \(count))…\n")
        while taken < count {
            let left = timeout - (Self.now() - start)
            guard left > 0 else {
                throw LearnFailure("timed out after \(Self.seconds(timeout)) s with \(taken) of \(count) strokes (\(book.path) has what was taken)")
            }
            var pfd = pollfd(fd: device.fd, events: Int16(POLLIN), revents: 0)
            let n = retryingInterrupts { poll(&pfd, 1, Int32(min(left, 1) * 1000)) }
            if n < 0 { throw LearnFailure("poll: \(Errno.current)") }
            guard n > 0 else { continue }
            var verdicts: [StrokeCollector.Verdict] = []
            let outcome = device.read { e in
                tracker.feed(e) { frame in
                    if let v = collector.handle(frame) { verdicts.append(v) }
                }
            }
            switch outcome {
            case .unplugged: throw LearnFailure("\(device.devnode): unplugged")
            case .failed(let e): throw LearnFailure("\(device.devnode): read failed: \(Errno(rawValue: e))")
            case .dropped(let time):
                tracker.resync(time: time, slots: device.slotSnapshot()) { frame in
                    if let v = collector.handle(frame) { verdicts.append(v) }
                }
            case .more, .wouldBlock: break
            }
            for v in verdicts where taken < count {
                let line = book.take(v, source: "live \(device.info.name)")
                StandardStream.writeOutput("stroke: \(line)\n")
                if case .stroke = v {
                    taken += 1
                    try book.save()
                    StandardStream.writeOutput(book.findings())
                    if taken < count { StandardStream.writeOutput("draw \(name) (\(taken + 1) of \(count))…\n") }
                }
            }
        }
    }

    static func open(_ pattern: String) throws -> EvdevDevice {
        let monitor = DeviceMonitor()
        var seen: [String] = []
        for c in monitor.enumerate() {
            guard let d = try? EvdevDevice(devnode: c.devnode, properties: c.properties) else { continue }
            seen.append("\(c.devnode) \"\(d.info.name)\" (\(d.info.id))")
            if Glob.matches(pattern, d.info.name) || Glob.matches(pattern, d.info.id) || Glob.matches(pattern, c.devnode) { return d }
        }
        throw LearnFailure("no touch device matches \"\(pattern)\" (found: \(seen.isEmpty ? "none" : seen.joined(separator: ", ")))")
    }

    static func note(_ s: String) { StandardStream.writeError("gestured learn: note: \(s)\n") }

    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    static func seconds(_ x: Double) -> String { DecimalText.string(x, places: 2) }
    static func score(_ x: Double) -> String { DecimalText.string(x, places: 3) }
}

/// The shape being taught: what the file held, what this run adds, and the other shapes of the
/// directory to warn about look-alikes.
struct ShapeBook {
    let path: String
    private(set) var shape: TaughtShape
    private(set) var added = 0
    private let others: [TaughtShape]
    private let othersMatcher: ShapeMatcher
    private let date: String
    private let person: String

    init(name: String, directory: String, person: String) throws {
        self.person = person
        path = ShapeLibrary.path(of: name, in: directory)
        if access(path, F_OK) == 0 {
            do {
                shape = try ShapeLibrary.read(path: path)
            } catch {
                throw LearnFailure("\(error): fix or remove it first")
            }
        } else {
            shape = TaughtShape(name: name, examples: [])
        }
        others = ShapeLibrary.load(directory: directory).shapes.filter { $0.name != name }
        othersMatcher = ShapeMatcher(shapes: others)
        date = Self.utcNow()
    }

    /// Adds a usable stroke; says what happened to it.
    mutating func take(_ verdict: StrokeCollector.Verdict, source: String) -> String {
        guard case .stroke(let stroke) = verdict else { return "skipped: \(verdict.reason)" }
        guard shape.examples.count < ShapeFile.maxExamples else { return "skipped: \(shape.name) has \(ShapeFile.maxExamples) examples already" }
        let example = ShapeExample(stroke: stroke, source: source, date: date, person: person)
        var points: [Point] = []
        stroke.resample(count: ShapeExample.pointCount, into: &points)
        var notes: [String] = []
        if !shape.examples.isEmpty, let own = ShapeMatcher(shapes: [shape]).ranked(points).first {
            notes.append("score \(Learn.seconds(own.score)) against the examples so far\(own.isAccepted ? "" : ", below the threshold: a different way of drawing it?")")
        }
        if let other = othersMatcher.ranked(points).first, other.isAccepted {
            notes.append("warning: also matches \(other.shape) (score \(Learn.seconds(other.score)))")
        }
        shape.examples.append(example)
        shape = ShapeCalibration.calibrating(0, of: [shape] + others)
        added += 1
        return "ok, example \(shape.examples.count)" + (notes.isEmpty ? "" : " (\(notes.joined(separator: "; ")))")
    }

    /// The calibrated threshold and the advice on the examples so far (ShapeAdvice), a line each.
    func findings() -> String {
        let c = ShapeCalibration(0, of: [shape] + others)
        var line = "threshold \(Learn.score(shape.threshold)) \(shape.thresholdOrigin.rawValue)"
        var facts: [String] = []
        if let low = c.within.min(), let high = c.within.max() {
            facts.append("examples against each other \(Learn.score(low))–\(Learn.score(high))")
        }
        if let low = c.across.first, let high = c.across.last {
            facts.append("\(c.people) people, examples against the other people's \(Learn.score(low))–\(Learn.score(high))")
        }
        if let n = c.nearestOther { facts.append("nearest other shape \(n.shape) (its example \(n.example), \(Learn.score(n.score)))") }
        if !facts.isEmpty { line += " (" + facts.joined(separator: "; ") + ")" }
        let advice = ShapeAdvice.advice(c, examples: shape.examples.count, threshold: shape.threshold)
        return ([line] + advice.map { "advice: \($0)" }).joined(separator: "\n") + "\n"
    }

    /// How the people who taught the shape agree and what to do (TeacherReport), printed once at the end.
    func teachersReport() -> String {
        (["teachers' report:"] + TeacherReport(0, of: [shape] + others).lines.map { "  " + $0 }).joined(separator: "\n") + "\n"
    }

    func save() throws {
        do {
            try FileSystem.writeAtomically(Array(ShapeFile.text(shape).utf8), toPath: path)
        } catch {
            throw LearnFailure("\(path): cannot write: \(error)")
        }
    }

    /// Now, UTC, ISO 8601 (seconds).
    static func utcNow() -> String {
        var t = time(nil)
        var tm = tm()
        gmtime_r(&t, &tm)
        func two(_ v: Int32) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(tm.tm_year + 1900)-\(two(tm.tm_mon + 1))-\(two(tm.tm_mday))T\(two(tm.tm_hour)):\(two(tm.tm_min)):\(two(tm.tm_sec))Z"
    }
}

/// A failure while learning (unreadable recording, no device, timeout): reported as
/// `Error: …` with exit status 1, without the usage text a wrong argument gets.
struct LearnFailure: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}
