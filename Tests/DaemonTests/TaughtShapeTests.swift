import Foundation
import Glibc
import Testing

/// Teaching a shape end to end, as an operator does it: `gestured learn` from a recording, a
/// config that loads the shape directory and binds the shape, the daemon replaying a new stroke
/// of it, the bound command running with GESTURE_NAME=shape and GESTURE_SHAPE=zorro.
@Suite(.serialized) struct TaughtShapeTests {
    /// s01's x strokes: the first five teach "zorro", the sixth is drawn; a triangle is no zorro.
    static let unistroke = DaemonHarness.root.path + "/Tests/Fixtures/unistroke"

    /// The strokes of `windows` (1-based lines of the windows file) of a unistroke recording,
    /// cut into an evemu file of their own (the header and the events inside those windows).
    static func cut(_ shape: String, windows: ClosedRange<Int>, to path: String) throws {
        let text = try String(contentsOfFile: "\(unistroke)/\(shape).evemu", encoding: .utf8)
        let lines = try String(contentsOfFile: "\(unistroke)/\(shape).windows", encoding: .utf8).split(separator: "\n")
        let spans = windows.map { i -> (Double, Double) in
            let f = lines[i - 1].split(separator: " ")
            return (Double(f[0])!, Double(f[1])!)
        }
        var out: [Substring] = []
        for line in text.split(separator: "\n") {
            guard line.hasPrefix("E: ") else { out.append(line); continue }
            let t = Double(line.split(separator: " ")[1])!
            if spans.contains(where: { t >= $0.0 - 1e-6 && t <= $0.1 + 1e-6 }) { out.append(line) }
        }
        try (out.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }

    static func gestured(_ args: [String]) throws -> (status: Int32, out: String, err: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try DaemonHarness.binary())
        p.arguments = args
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }

    static let config = """
        [socket]
        mode = "0600"

        [shapes]
        dir = "shapes"

        [[bind]]
        gesture = "shape"
        shape = "zorro"
        run = ["/bin/sh", "-c", "env | grep '^GESTURE_' | sort > $DIR/env.txt.tmp && mv $DIR/env.txt.tmp $DIR/env.txt"]
        timeout = 5
        """

    @Test func learnBindReplayRunsTheBoundCommand() throws {
        let work = NSTemporaryDirectory() + "gestured-shape-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }
        try Self.cut("x", windows: 1...5, to: work + "/teach.evemu")
        try Self.cut("x", windows: 6...6, to: work + "/draw.evemu")
        try Self.cut("triangle", windows: 1...1, to: work + "/other.evemu")

        // Learn: five strokes, five examples; learning again appends.
        let learned = try Self.gestured(["learn", "zorro", "--out", work + "/shapes", work + "/teach.evemu"])
        #expect(learned.status == 0, "\(learned)")
        #expect(learned.out.components(separatedBy: ": ok, example").count - 1 == 5, "\(learned.out)")
        let file = try String(contentsOfFile: work + "/shapes/zorro.shape", encoding: .utf8)
        #expect(file.contains("gestured-shape 4\nname zorro\nthreshold 0.9"), "\(file)")
        #expect(learned.out.contains("\nthreshold 0.9") && learned.out.contains(" calibrated ("), "\(learned.out)")
        #expect(file.components(separatedBy: "\nexample ").count - 1 == 5)
        #expect(file.contains("teach.evemu stroke 3"))
        let again = try Self.gestured(["learn", "zorro", "--out", work + "/shapes", work + "/teach.evemu"])
        #expect(again.status == 0 && again.out.contains("10 examples (5 new)"), "\(again)")
        let appended = try String(contentsOfFile: work + "/shapes/zorro.shape", encoding: .utf8)
        // Appending examples only adds lines (and recalibrates the threshold line).
        let unthresholded = { (t: String) in t.split(separator: "\n").filter { !$0.hasPrefix("threshold ") }.joined(separator: "\n") }
        #expect(unthresholded(appended).hasPrefix(unthresholded(file)), "appending examples must only add lines")

        // check-config lists the shape with its example count.
        try Self.config.replacingOccurrences(of: "$DIR", with: work).write(toFile: work + "/gestures.toml", atomically: true, encoding: .utf8)
        let checked = try Self.gestured(["check-config", work + "/gestures.toml"])
        #expect(checked.status == 0 && checked.out.contains("zorro: 10 examples, threshold 0.9"), "\(checked)")
        #expect(checked.out.contains(" calibrated, as drawn"), "\(checked)")

        // gestured replay --config: the new stroke is zorro, the triangle is nothing taught.
        let replayed = try Self.gestured(["replay", "--config", work + "/gestures.toml", work + "/draw.evemu", work + "/other.evemu"])
        let shapes = replayed.out.split(separator: "\n").filter { $0.contains(#""gesture":"shape""#) }
        #expect(shapes.count == 1 && shapes[0].contains(#""shape":"zorro""#) && shapes[0].contains(#""device_id":"draw""#), "\(replayed)")
        // Without the config, replay knows no shapes.
        let plain = try Self.gestured(["replay", work + "/draw.evemu"])
        #expect(!plain.out.contains(#""gesture":"shape""#))

        // The daemon: the bound command runs with the shape in its environment.
        let daemonConfig = Self.config.replacingOccurrences(of: #"dir = "shapes""#, with: #"dir = "\#(work)/shapes""#)
        let d = try DaemonHarness(config: daemonConfig, replays: [work + "/draw.evemu", work + "/other.evemu"])
        let c = try d.connect()
        try d.replayAndWait(c)
        let text = try #require(d.written("env.txt"), "log:\n\(d.log)")
        #expect(text.contains("GESTURE_NAME=shape\n"), "\(text)")
        #expect(text.contains("GESTURE_SHAPE=zorro\n"), "\(text)")
        #expect(text.contains("GESTURE_SCORE=0."), "\(text)")
    }

    /// A fresh temporary directory for one test, removed after it.
    static func inWorkDirectory(_ body: (String) throws -> Void) throws {
        let work = NSTemporaryDirectory() + "gestured-shape-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }
        try body(work)
    }

    /// What `learn` finds in the examples, on recordings: the threshold it calibrated, a stroke
    /// of another shape among the examples (by number), too few examples, a look-alike of a shape
    /// already taught; an explicit `[shapes.NAME] threshold` wins and check-config says so.
    @Test func learnAdvisesOnTheExamples() throws {
        try Self.inWorkDirectory { work in
            try Self.cut("x", windows: 1...5, to: work + "/x1-5.evemu")
            try Self.cut("x", windows: 6...10, to: work + "/x6-10.evemu")
            try Self.cut("x", windows: 11...13, to: work + "/x11-13.evemu")
            try Self.cut("triangle", windows: 1...1, to: work + "/triangle.evemu")

            let slip = try Self.gestured(["learn", "zorro", "--out", work + "/shapes", work + "/x1-5.evemu", work + "/triangle.evemu"])
            #expect(slip.status == 0, "\(slip)")
            #expect(slip.out.contains("advice: example 6 does not fit the others (score 0."), "\(slip.out)")
            #expect(!slip.out.contains("advice: example 1 "), "\(slip.out)")

            let few = try Self.gestured(["learn", "few", "--out", work + "/shapes", work + "/x11-13.evemu"])
            #expect(few.out.contains("advice: 3 examples: teach at least 5"), "\(few.out)")

            try FileManager.default.removeItem(atPath: work + "/shapes/few.shape")
            let twin = try Self.gestured(["learn", "zed", "--out", work + "/shapes", work + "/x6-10.evemu"])
            #expect(twin.out.contains("advice: will be confused with zorro: its example "), "\(twin.out)")

            try (Self.config + "\n[shapes.zorro]\nthreshold = 0.95\n").write(toFile: work + "/gestures.toml", atomically: true, encoding: .utf8)
            let checked = try Self.gestured(["check-config", work + "/gestures.toml"])
            #expect(checked.out.contains("zorro: 6 examples, threshold 0.95 set"), "\(checked)")
            #expect(checked.out.contains("zed: 5 examples, threshold 0.9") && checked.out.contains(" calibrated,"), "\(checked)")
        }
    }

    /// `learn --person`: each example says who drew it (file version 5); examples of one person
    /// are advised about, examples of two are scored against each other's people.
    @Test func learnSaysWhoDrewTheExamples() throws {
        try Self.inWorkDirectory { work in
            try Self.cut("x", windows: 1...5, to: work + "/x1-5.evemu")
            try Self.cut("x", windows: 6...10, to: work + "/x6-10.evemu")
            let ann = try Self.gestured(["learn", "zorro", "--person", "ann", "--out", work + "/shapes", work + "/x1-5.evemu"])
            #expect(ann.status == 0, "\(ann)")
            #expect(ann.out.contains("advice: every example is one person's: other people who draw it otherwise may be rejected"), "\(ann.out)")
            let bob = try Self.gestured(["learn", "zorro", "--person", "bob", "--out", work + "/shapes", work + "/x6-10.evemu"])
            #expect(bob.status == 0, "\(bob)")
            #expect(bob.out.contains("2 people, examples against the other people's 0."), "\(bob.out)")
            #expect(!bob.out.contains("one person's"), "\(bob.out)")
            // The teachers' report, at the end: who taught it and how alike (the same person's x strokes: alike).
            #expect(ann.out.contains("teachers' report:\n  zorro: 5 examples by 1 teacher, threshold 0.9") && ann.out.contains("one person taught it"), "\(ann.out)")
            #expect(bob.out.contains("teachers' report:\n  zorro: 10 examples by 2 teachers, threshold 0.9"), "\(bob.out)")
            #expect(bob.out.contains("  teachers agree: median 0.9") && bob.out.contains("closest other shape: none taught beside it"), "\(bob.out)")
            let file = try String(contentsOfFile: work + "/shapes/zorro.shape", encoding: .utf8)
            #expect(file.contains("gestured-shape 5\n"), "\(file)")
            #expect(file.components(separatedBy: "\nperson ann\n").count == 6 && file.components(separatedBy: "\nperson bob\n").count == 6, "\(file)")
            let bad = try Self.gestured(["learn", "zorro", "--person", "a b", "--out", work + "/shapes", work + "/x1-5.evemu"])
            #expect(bad.status != 0 && bad.err.contains("--person \"a b\""), "\(bad)")
        }
    }

    @Test func malformedShapeFileIsAConfigErrorWithItsLine() throws {
        let work = NSTemporaryDirectory() + "gestured-shape-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: work + "/shapes", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }
        try """
            # a comment
            gestured-shape 1
            name zorro
            example 2026-11-22T00:00:00Z hand-made
            points 0,0 0.5,0.5 1,x
            """.write(toFile: work + "/shapes/zorro.shape", atomically: true, encoding: .utf8)
        try Self.config.write(toFile: work + "/gestures.toml", atomically: true, encoding: .utf8)
        let checked = try Self.gestured(["check-config", work + "/gestures.toml"])
        #expect(checked.status == 1)
        #expect(checked.err.contains(work + "/shapes/zorro.shape:5: point 3 \"1,x\""), "\(checked)")
        // The binding names a shape that did not load: said too, in the config file.
        #expect(checked.err.contains(work + "/gestures.toml:9: bind[1].shape: unknown shape \"zorro\""), "\(checked)")
    }
}
