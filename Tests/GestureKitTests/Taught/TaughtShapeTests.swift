import Testing
@testable import GestureKit

/// The shape recognizer on synthetic strokes: a taught Z is found when redrawn larger, shifted
/// and jittered; drawn backwards or mirrored it is not (rotate = false), unless rotation is
/// allowed; an untaught shape is rejected; the shape file reads back what it wrote.
@Suite struct TaughtShapeTests {
    typealias P = Point
    static let z = Synthetic.polyline([P(x: 80, y: 80), P(x: 120, y: 80), P(x: 80, y: 120), P(x: 120, y: 120)], step: 0.8)

    static func example(_ pts: [Point], seed: UInt64) -> ShapeExample {
        var s = Stroke()
        for p in Synthetic.transformed(pts, jitter: 0.4, seed: seed) { s.append(mm: p, position: p / 200) }
        return ShapeExample(stroke: s, source: "test", date: "2026-11-22T00:00:00Z")
    }

    static func zorro(rotate: Bool = false) -> TaughtShape {
        TaughtShape(name: "zorro", examples: (1...3).map { example(z, seed: $0) }, rotate: rotate)
    }

    func recognized(_ pts: [Point], _ shapes: [TaughtShape]) -> GestureEvent? {
        Synthetic.play(pts, into: ShapeRecognizer(rules: ShapeRules(), context: RecognizerContext(shapes: shapes))).first
    }

    @Test func findsTheTaughtShapeRedrawn() throws {
        let redrawn = Synthetic.transformed(Self.z, scale: 1.6, rotation: 0.05, jitter: 0.6, seed: 9)
        let e = try #require(recognized(redrawn, [Self.zorro()]))
        #expect(e.kind == .shape && e.shape == "zorro" && e.phase == .recognized)
        #expect((e.score ?? 0) >= TaughtShape.defaultThreshold && (e.score ?? 0) <= 1)
        #expect(e.json(device: DeviceLabel(name: "d", id: "d")).contains(#""gesture":"shape","phase":"recognized""#))
    }

    @Test func directionAndOrientationMatterUnlessRotationIsAllowed() {
        let backwards = Array(Self.z.reversed())
        let mirrored = Self.z.map { P(x: 200 - $0.x, y: $0.y) }  // an S-like reversed Z
        let turned = Synthetic.transformed(Self.z, rotation: Double.pi / 2)
        for stroke in [backwards, mirrored, turned] { #expect(recognized(stroke, [Self.zorro()]) == nil) }
        #expect(recognized(backwards, [Self.zorro(rotate: true)])?.shape == "zorro")
        #expect(recognized(turned, [Self.zorro(rotate: true)])?.shape == "zorro")
    }

    @Test func rejectsUntaughtShapesAndPicksTheBestOfSeveral() {
        let circle = Synthetic.arc(radius: 20, turns: 1)
        let line = Synthetic.polyline([P(x: 50, y: 50), P(x: 150, y: 60)])
        #expect(recognized(circle, [Self.zorro()]) == nil)
        #expect(recognized(line, [Self.zorro()]) == nil)
        let n = Synthetic.polyline([P(x: 80, y: 120), P(x: 80, y: 80), P(x: 120, y: 120), P(x: 120, y: 80)], step: 0.8)
        let nShape = TaughtShape(name: "enn", examples: [Self.example(n, seed: 4)])
        #expect(recognized(Synthetic.transformed(n, jitter: 0.5, seed: 11), [Self.zorro(), nShape])?.shape == "enn")
        #expect(recognized(Synthetic.transformed(Self.z, jitter: 0.5, seed: 12), [Self.zorro(), nShape])?.shape == "zorro")
        // A stricter threshold than the match reaches rejects it.
        var strict = Self.zorro()
        strict.threshold = 0.9999
        #expect(recognized(Synthetic.transformed(Self.z, jitter: 0.5, seed: 12), [strict]) == nil)
    }

    @Test func tooSmallOrTwoFingersIsNoShape() {
        let tiny = Synthetic.transformed(Self.z, scale: 0.15)  // 6 mm across
        #expect(recognized(tiny, [Self.zorro()]) == nil)
        #expect(recognized(Self.z, []) == nil)
    }

    @Test func shapeFileRoundTripsAndAppends() throws {
        let shape = Self.zorro()
        let text = ShapeFile.text(shape)
        let back = try ShapeFile.parse(text)
        #expect(back.name == "zorro" && back.examples.count == 3)
        #expect(back.examples[0].points == shape.examples[0].points)
        #expect(back.examples[0].source == "test" && back.examples[0].date == "2026-11-22T00:00:00Z")
        var more = back
        more.examples.append(Self.example(Self.z, seed: 7))
        #expect(ShapeFile.text(more).hasPrefix(text))
        #expect(ShapeExample.pointCount == back.examples[0].points.count)
        // A calibrated threshold is written and read back; a version 1 file (none) reads as the default.
        #expect(!text.contains("\nthreshold ") && back.thresholdOrigin == .default)
        var calibrated = shape
        calibrated.threshold = 0.931
        calibrated.thresholdOrigin = .calibrated
        let withThreshold = ShapeFile.text(calibrated)
        #expect(withThreshold.contains("gestured-shape 4\nname zorro\nthreshold 0.931 calibrated\n"))
        let read = try ShapeFile.parse(withThreshold)
        #expect(read.threshold == 0.931 && read.thresholdOrigin == .calibrated)
        // A version 2 or 3 threshold is a score of an older matching: calibrated again when loaded.
        for older in [2, 3] {
            let file = try ShapeFile.parse(withThreshold.replacing("gestured-shape 4", with: "gestured-shape \(older)"))
            #expect(file.examples == read.examples && file.thresholdOrigin == .default)
        }
        let version1 = try ShapeFile.parse(text.replacing("gestured-shape 4", with: "gestured-shape 1"))
        #expect(version1.examples == back.examples && version1.thresholdOrigin == .default)
        // Who drew an example (version 5, written only then): read back; the others stay version 4.
        var drawn = shape
        drawn.examples[1].person = "ann"
        let withPerson = ShapeFile.text(drawn)
        #expect(withPerson.contains("gestured-shape 5\n"), "\(withPerson)")
        #expect(withPerson.components(separatedBy: "\nperson ann\npoints ").count == 2, "\(withPerson)")
        #expect(try ShapeFile.parse(withPerson).examples.map(\.person) == ["", "ann", ""])
        // Edited on another system: CRLF line ends read the same.
        let crlf = try ShapeFile.parse(text.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\r\n"))
        #expect(crlf.examples.map(\.points) == back.examples.map(\.points))
    }

    @Test(arguments: [
        ("name zorro\n", 1, "expected \"gestured-shape 5\" first"),
        ("gestured-shape 6\n", 1, "unsupported format"),
        ("gestured-shape 4\nname z\nexample d s\nperson ann\n", 4, "needs \"gestured-shape 5\""),
        ("gestured-shape 5\nname z\nperson ann\n", 3, "person line without an example"),
        ("gestured-shape 5\nname z\nexample d s\nperson ann\nperson bob\n", 5, "given twice"),
        ("gestured-shape 5\nname z\nexample d s\nperson ann bob\n", 4, "expected \"person NAME\""),
        ("gestured-shape 1\nname z\nthreshold 0.9 calibrated\n", 3, "needs \"gestured-shape 2\""),
        ("gestured-shape 2\nname z\nthreshold 1.5 calibrated\n", 3, "threshold SCORE calibrated"),
        ("gestured-shape 2\nname z\nthreshold 0.9\n", 3, "threshold SCORE calibrated"),
        ("gestured-shape 2\nname z\nthreshold 0.9 calibrated\nthreshold 0.9 calibrated\n", 4, "given twice"),
        ("gestured-shape 1\nname zo rro\n", 2, "expected \"name NAME\""),
        ("gestured-shape 1\nname z\nexample d s\n", 3, "example without a points line"),
        ("gestured-shape 1\nname z\npoints 0,0 1,1\n", 3, "points line without an example"),
        ("gestured-shape 1\nname z\nexample d s\npoints 0,0\n", 4, "2 to 256 points"),
        ("gestured-shape 1\nname z\nexample d s\npoints 0,0 1,1e9\n", 4, "point 2"),
        ("gestured-shape 1\nname z\nexample d s\npoints 1,1 1,1\n", 4, "no stroke"),
        ("gestured-shape 1\nname z\nfrobnicate\n", 3, "unknown line"),
        ("gestured-shape 1\nname z\n", 2, "no examples"),
        ("gestured-shape 1\nexample d s\npoints 0,0 1,1\n", 3, "no \"name\" line"),
    ])
    func malformedFilesNameTheirLine(text: String, line: Int, message: String) {
        #expect(throws: ShapeFile.ParseError.self) { try ShapeFile.parse(text) }
        do {
            _ = try ShapeFile.parse(text)
        } catch {
            #expect(error.line == line, "\(error)")
            #expect(error.message.contains(message), "\(error)")
        }
    }

    @Test func limitsAreEnforced() {
        let pts = (0...(ShapeFile.maxPoints)).map { "\($0 % 7),\($0 % 5)" }.joined(separator: " ")
        #expect(throws: ShapeFile.ParseError.self) { try ShapeFile.parse("gestured-shape 1\nname z\nexample d s\npoints \(pts)\n") }
        let many = String(repeating: "example d s\npoints 0,0 1,1\n", count: ShapeFile.maxExamples + 1)
        #expect(throws: ShapeFile.ParseError.self) { try ShapeFile.parse("gestured-shape 1\nname z\n" + many) }
    }
}
