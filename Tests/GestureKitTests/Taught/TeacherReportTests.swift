import Testing
@testable import GestureKit

/// `learn`'s teachers' report (TeacherReport): the teacher who draws a shape unlike the others is
/// named, teachers who draw alike agree, one teacher or none is told to ask another person, a
/// look-alike near the threshold is named with its margin, and so is a built-in shape taking its examples.
@Suite struct TeacherReportTests {
    typealias P = Point
    static let z = TaughtShapeTests.z
    /// A Z that starts with a hook: drawn that way by one teacher only.
    static let hooked = Synthetic.polyline([P(x: 90, y: 94), P(x: 80, y: 80), P(x: 120, y: 80), P(x: 80, y: 120), P(x: 120, y: 120)], step: 0.8)

    static func zorro(_ teachers: [(String, [Point])]) -> TaughtShape {
        var examples: [ShapeExample] = []
        var seed: UInt64 = 1
        for (name, points) in teachers {
            for _ in 0..<3 {
                var e = TaughtShapeTests.example(points, seed: seed)
                e.person = name
                examples.append(e)
                seed += 1
            }
        }
        return TaughtShape(name: "zorro", examples: examples)
    }

    @Test func theTeacherWhoDrawsItOtherwiseStandsApart() throws {
        let shape = Self.zorro([("ann", Self.z), ("bob", Self.z), ("cy", Self.hooked)])
        let r = TeacherReport(0, of: [ShapeCalibration.calibrating(0, of: [shape])])
        #expect(r.teachers.map(\.name).sorted() == ["ann", "bob", "cy"] && r.teachers.allSatisfy { $0.examples == 3 })
        #expect(r.teachersDisagree && r.apart.map(\.name) == ["cy"], "\(r.teachers)")
        #expect(r.teachers.first?.name == "cy" && r.teachers.dropFirst().allSatisfy { $0.agreement >= r.floor }, "\(r.teachers)")
        #expect(r.advice.contains(.drawnDifferently(apart: ["cy"], teachers: 3)), "\(r.advice)")
        let text = r.lines.joined(separator: "\n")
        #expect(text.contains("teachers disagree") && text.contains("stands apart: cy (0.") && text.contains("cy draws it unlike the others"), "\(text)")
    }

    @Test func teachersWhoDrawItAlikeAgree() throws {
        let shape = Self.zorro([("ann", Self.z), ("bob", Self.z)])
        let r = TeacherReport(0, of: [ShapeCalibration.calibrating(0, of: [shape])])
        #expect(!r.teachersDisagree && r.apart.isEmpty && r.advice.isEmpty, "\(r.teachers) \(r.advice)")
        #expect(try #require(r.consistency) >= r.floor)
        #expect(r.lines.joined().contains("teachers agree"), "\(r.lines)")
    }

    @Test func oneTeacherOrNoneIsToldToAskAnother() {
        var shape = Self.zorro([("ann", Self.z)])
        #expect(TeacherReport(0, of: [shape]).advice == [.anotherPerson(teachers: 1)])
        for i in shape.examples.indices { shape.examples[i].person = "" }
        let r = TeacherReport(0, of: [shape])
        #expect(r.advice == [.anotherPerson(teachers: 0)] && r.unnamed == 3 && r.consistency == nil)
        #expect(r.lines[0] == "zorro: 3 examples by 0 teachers (3 unnamed), threshold 0.920", "\(r.lines)")
    }

    /// A shape taught as a loop is taken by the built-in circle (which decides first); a Z by neither.
    @Test func aShapeTheBuiltInCircleTakesIsNamed() throws {
        let loop = TaughtShape(name: "loop", examples: (1...3).map { TaughtShapeTests.example(Synthetic.ellipse(rx: 20, ry: 20), seed: $0) })
        let r = TeacherReport(0, of: [loop])
        #expect(r.builtIn == [BuiltInLookAlikes.Taken(recognizer: "circle", examples: [1, 2, 3])], "\(r.builtIn)")
        #expect(r.advice.contains(.builtInTakes(recognizer: "circle", count: 3, of: 3)), "\(r.advice)")
        #expect(r.lines.contains("  built-in shapes (its examples drawn 40 mm across): circle takes examples 1, 2, 3"), "\(r.lines)")
        #expect(TeacherReport(0, of: [Self.zorro([("ann", Self.z)])]).builtIn.isEmpty)
    }

    /// The same Z taught as two shapes: each is the other's closest, above its threshold.
    @Test func aLookAlikeIsNamedWithItsMargin() throws {
        var twin = Self.zorro([("ann", Self.z)])
        twin.name = "zed"
        let shapes = [Self.zorro([("bob", Self.z)]), twin]
        let r = TeacherReport(0, of: [ShapeCalibration.calibrating(0, of: shapes), shapes[1]])
        let m = try #require(r.nearestMargin)
        #expect(r.nearest?.shape == "zed" && m < TeacherReport.closeness, "\(String(describing: r.nearest))")
        #expect(r.advice.contains(.moreDistinct(from: "zed", margin: m)), "\(r.advice)")
        #expect(r.lines.contains { $0.hasPrefix("  closest other shape: zed (its example ") }, "\(r.lines)")
    }
}
