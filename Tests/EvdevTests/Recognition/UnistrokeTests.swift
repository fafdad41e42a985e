import Testing
@testable import Evdev
import GestureKit

/// The tuning set (Tests/Fixtures/unistroke: 16 shapes × 30 strokes, one stroke per touch)
/// through the real evemu parser and contact tracker: every circle and every check found,
/// nothing else taken for either, and none of the 16 shapes taken for a tickle.
@Suite struct UnistrokeTests {
    static let shapes = ["arrow", "caret", "check", "circle", "delete_mark", "left_curly_brace", "left_sq_bracket",
                         "pigtail", "question_mark", "rectangle", "right_curly_brace", "right_sq_bracket", "star",
                         "triangle", "v", "x"]

    @Test func tuningSetConfusion() throws {
        var lines: [String] = []
        var falseCircles = 0, falseChecks = 0, falseTickles = 0
        for shape in Self.shapes {
            let events = try shapeEvents(Fixture.root + "/unistroke/\(shape).evemu")
            let circles = events.filter { $0.kind == .circle }.count
            let checks = events.filter { $0.kind == .checkmark }.count
            let tickles = events.filter { $0.kind == .tickle }.count
            falseTickles += tickles
            lines.append("\(shape): circle \(circles), checkmark \(checks), tickle \(tickles) of 30")
            switch shape {
            case "circle": #expect(circles == 30); falseChecks += checks
            case "check": #expect(checks == 30); falseCircles += circles
            default: falseCircles += circles; falseChecks += checks
            }
        }
        print("unistroke confusion (real tracker):\n" + lines.joined(separator: "\n"))
        #expect(falseCircles == 0)
        #expect(falseChecks == 0)
        #expect(falseTickles == 0)
    }
}
