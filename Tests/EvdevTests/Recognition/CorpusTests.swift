import Corpus
import Evdev
import GestureKit
import Glibc
import Testing

/// The corpus loader: five people's strokes, each labelled and cut at its own touch.
@Suite struct CorpusTests {
    @Test func fivePeopleSixteenShapesThirtyStrokesEach() throws {
        let corpus = try UnistrokeCorpus.load(UnistrokeCorpus.sources(fixtures: Fixture.root))
        #expect(corpus.subjects == ["s01", "s02", "s03", "s04", "s05"])
        #expect(corpus.strokes.count == 2400)
        var perKey: [String: Int] = [:]
        for s in corpus.strokes { perKey["\(s.subject) \(s.shape) \(s.speed)", default: 0] += 1 }
        #expect(perKey.count == 5 * 16 * 3)
        #expect(perKey.values.allSatisfy { $0 == 10 })
        for s in corpus.strokes {
            // One touch, down from the first frame to the last, lifted in the last.
            #expect(s.frames.first?.contacts.first?.phase == .began, "\(s.label)")
            #expect(s.frames.last?.contacts.first?.phase == .ended, "\(s.label)")
            #expect(s.frames.dropLast().allSatisfy { $0.downCount == 1 }, "\(s.label)")
            #expect(s.name.hasPrefix(s.shape), "\(s.label)")
        }
    }

    @Test func aWindowWithoutItsTouchIsAnErrorWithFileAndLine() throws {
        let dir = "/tmp/gestured-corpus-\(getpid())"
        mkdir(dir, 0o755)
        defer { _ = unlink(dir + "/check.evemu"); _ = unlink(dir + "/check.windows"); rmdir(dir) }
        let evemu = try TextFile.read(Fixture.root + "/unistroke/check.evemu")
        write(dir + "/check.evemu", evemu)
        write(dir + "/check.windows", "1000.0 1000.7 s01/fast/check01\n5000.0 5001.0 s01/fast/check99\n")
        #expect {
            _ = try UnistrokeCorpus.load([.init(directory: dir)], shapes: ["check"])
        } throws: { error in
            let e = error as? RecordingError
            return e?.file == dir + "/check.windows" && e?.line == 2
        }
    }

    private func write(_ path: String, _ text: String) {
        let f = fopen(path, "w")
        fputs(text, f)
        fclose(f)
    }
}
