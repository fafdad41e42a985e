import Testing
@testable import Daemon
import GestureKit

@Suite struct JSONReaderTests {
    private func read(_ s: String) throws(JSONReader.Error) -> JSONValue { try JSONReader.parse(s) }

    /// The error a malformed input gets (the test fails if it is accepted).
    private func rejection(_ s: String, maxDepth: Int = JSONReader.defaultMaxDepth) -> JSONReader.Error? {
        do {
            let v = try JSONReader.parse(s, maxDepth: maxDepth)
            Issue.record("accepted \(s) as \(v)")
            return nil
        } catch {
            return error
        }
    }

    @Test func objectsAndArrays() throws {
        let v = try read(#" { "subscribe" : ["circle", "pan"], "device": "Wacom*", "n": {} , "e": [] } "#)
        #expect(v == .object([
            "subscribe": .array([.string("circle"), .string("pan")]),
            "device": .string("Wacom*"),
            "n": .object([:]),
            "e": .array([]),
        ]))
        #expect(v["subscribe"]?.strings == ["circle", "pan"])
        #expect(v["device"]?.string == "Wacom*")
        #expect(v["missing"] == nil)
        #expect(v["subscribe"]?.string == nil)
        #expect(try read(#"["a", 1]"#).strings == nil)
    }

    @Test func scalarsAtTheTop() throws {
        #expect(try read("true") == .bool(true))
        #expect(try read("false") == .bool(false))
        #expect(try read(" null\n") == .null)
        #expect(try read(#""x""#) == .string("x"))
        #expect(try read("7") == .number(7))
    }

    @Test func numbers() throws {
        #expect(try read("0") == .number(0))
        #expect(try read("-0.5") == .number(-0.5))
        #expect(try read("12.25") == .number(12.25))
        #expect(try read("1e3") == .number(1000))
        #expect(try read("2.5E-2") == .number(0.025))
        #expect(try read("-4e+1") == .number(-40))
        #expect(try read("3").int == 3)
        #expect(try read("3.0").int == 3)
        #expect(try read("3.5").int == nil)
        #expect(try read("3.5").number == 3.5)
        #expect(try read(#""3""#).int == nil)
    }

    @Test func stringsWithEscapesAndUnicode() throws {
        #expect(try read(#""a\"b\\c\/d""#) == .string("a\"b\\c/d"))
        #expect(try read(#""\b\f\n\r\t""#) == .string("\u{8}\u{C}\n\r\t"))
        #expect(try read(#""\u0041\u00e9\u20AC""#) == .string("Aé€"))
        // A surrogate pair is one scalar: U+1F600.
        #expect(try read(#""\uD83D\uDE00""#) == .string("\u{1F600}"))
        // Raw (unescaped) UTF-8 passes through.
        #expect(try read(#""Größe 😀""#) == .string("Größe 😀"))
        #expect(try read(#""""#) == .string(""))
    }

    @Test func trueFalseNullInContainers() throws {
        let v = try read(#"{"a":true,"b":false,"c":null,"d":[true,null]}"#)
        #expect(v["a"]?.bool == true)
        #expect(v["b"]?.bool == false)
        #expect(v["c"] == .null)
        #expect(v["d"] == .array([.bool(true), .null]))
    }

    @Test func nestingUpToTheLimitAndNoFurther() throws {
        let ok = String(repeating: "[", count: 5) + String(repeating: "]", count: 5)
        #expect(try JSONReader.parse(ok, maxDepth: 5) != .null)
        let tooDeep = String(repeating: "[", count: 6) + String(repeating: "]", count: 6)
        let e = rejection(tooDeep, maxDepth: 5)
        #expect(e?.message == "nesting deeper than 5 levels")
        #expect(e?.column == 6)
        // The default limit stops a hostile line long before the stack would.
        let hostile = String(repeating: #"{"a":"#, count: 100_000)
        #expect(rejection(hostile)?.message == "nesting deeper than 64 levels")
    }

    @Test func malformedInputsGetClearErrors() {
        let cases: [(String, String, Int)] = [
            ("", "unexpected end of input, expected a value", 1),
            ("not json", "unexpected 'n', expected a value", 1),
            ("{", "unexpected end of input, expected a key", 2),
            (#"{"a" 1}"#, "unexpected '1', expected ':' after the key", 6),
            (#"{"a":1,}"#, "unexpected '}', expected a key in double quotes", 8),
            ("[1,]", "unexpected ']', expected a value", 4),
            ("[1 2]", "unexpected '2', expected ',' or ']'", 4),
            (#"{"a":1 "b":2}"#, "unexpected '\"', expected ',' or '}'", 8),
            ("{a:1}", "unexpected 'a', expected a key in double quotes", 2),
            (#"{"a":1}x"#, "unexpected 'x' after the value", 8),
            ("1 2", "unexpected '2' after the value", 3),
            ("tru", "unexpected 't', expected a value", 1),
            ("nul", "unexpected 'n', expected a value", 1),
            ("01", "numbers must not have leading zeros", 2),
            ("+1", "unexpected '+', expected a value", 1),
            ("-", "a number needs a digit after '-'", 2),
            ("1.", "a number needs a digit after '.'", 3),
            (".5", "unexpected '.', expected a value", 1),
            ("1e", "a number needs a digit in its exponent", 3),
            ("1e999", "number 1e999 is out of range", 1),
            (#""abc"#, "unterminated string", 5),
            ("\"a\nb\"", "control character U+000A must be escaped in a string", 3),
            (#""\x""#, #"unknown escape \x (known: \" \\ \/ \b \f \n \r \t \uXXXX)"#, 2),
            (#""\u12G4""#, "\\u escape: expected 4 hexadecimal digits, found 'G'", 6),
            (#""\uD83D""#, #"lone surrogate \uD83D (a high surrogate needs a low one after it)"#, 2),
            (#""\uDE00""#, #"lone surrogate \uDE00 (a low surrogate without a high one)"#, 2),
            (#""\uD83D\u0041""#, #"\uD83D is followed by \u0041, not by a low surrogate"#, 2),
            (#"{"a":1,"a":2}"#, #"duplicate key "a""#, 8),
            ("[1,\n 2,\n ?]", "unexpected '?', expected a value", 2),
            ("// c\n{}", "unexpected '/', expected a value", 1),
        ]
        for (input, message, column) in cases {
            let e = rejection(input)
            #expect(e?.message == message, "\(input)")
            #expect(e?.column == column, "\(input): \(String(describing: e))")
        }
        // Line and column locate the problem in multi-line input.
        let e = rejection("[1,\n 2,\n ?]")
        #expect(e?.line == 3)
        #expect(e?.description == "line 3, column 2: unexpected '?', expected a value")
        // Columns count characters, not bytes.
        #expect(rejection(#"["é" x]"#)?.column == 6)
    }

    @Test func readsWhatJSONWriterWrites() throws {
        var w = JSONWriter()
        w.beginObject()
        w.key("name"); w.string("a \"b\"\n\u{1}\\")
        w.key("x"); w.number(-0.123456)
        w.key("ok"); w.bool(true)
        w.key("n"); w.int(-42)
        w.key("list"); w.beginArray(); w.null(); w.int(1); w.endArray()
        w.endObject()
        let v = try read(w.text)
        #expect(v == .object([
            "name": .string("a \"b\"\n\u{1}\\"),
            "x": .number(-0.1235),
            "ok": .bool(true),
            "n": .number(-42),
            "list": .array([.null, .number(1)]),
        ]))
    }
}
