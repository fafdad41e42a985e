import GestureKit
import Testing

/// Shape files that used to trap or miscount lines (the first found by fuzzing).
@Suite struct HostileShapeFileTests {
    @Test func aLineOfBlanksWithAStrayCarriageReturnIsSkipped() {
        let text = "#\u{6}gesorro.evemu stroke 1\n\t\t\t\r\t\t\nnam7Z z"
        #expect(throws: ShapeFile.ParseError.self) { try ShapeFile.parse(text) }
    }

    @Test func crlfFilesParseAndNameTheRightLine() throws {
        let good = "gestured-shape 1\r\nname zig\r\nexample - hand\r\npoints 0,0 1,1\r\n"
        #expect(try ShapeFile.parse(good).examples.count == 1)
        do {
            _ = try ShapeFile.parse("gestured-shape 1\r\nname zig\r\nexample - hand\r\npoints 0,0\r\n")
            Issue.record("expected an error")
        } catch {
            #expect(error.line == 4, "\(error)")
        }
    }
}
