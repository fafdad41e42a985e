@testable import Daemon
import Testing

/// gestured's TOML parser against the spec's own examples (toml.io, v1.0.0): every value type,
/// every way to make a table, and the errors the spec requires, each with its line and column.
struct TOMLParserTests {
    func parse(_ text: String) throws -> TOMLTable { try TOMLParser.parse(text) }

    func syntaxError(_ text: String) -> TOMLSyntaxError? {
        do { _ = try TOMLParser.parse(text); return nil } catch { return error }
    }

    @Test func scalars() throws {
        let t = try parse("""
            s = "tab\\there \\u00e9\\U0001F600 \\"q\\" \\\\"
            lit = 'C:\\Users\\nodejs'
            i = +99
            neg = -17
            big = 5_349_221
            hex = 0xDEAD_beef
            oct = 0o755
            bin = 0b1101
            f = -3.1415
            e = 5e+22
            fe = 6.626e-34
            inf = -inf
            nan = nan
            yes = true
            no = false
            odt = 1979-05-27T07:32:00.999-07:00
            spaced = 1979-05-27 07:32:00Z
            ld = 1979-05-27
            lt = 00:32:00.5
            """)
        #expect(t["s"] == .string("tab\there é😀 \"q\" \\"))
        #expect(t["lit"] == .string(#"C:\Users\nodejs"#))
        #expect(t["i"] == .integer(99))
        #expect(t["neg"] == .integer(-17))
        #expect(t["big"] == .integer(5_349_221))
        #expect(t["hex"] == .integer(0xDEADBEEF))
        #expect(t["oct"] == .integer(0o755))
        #expect(t["bin"] == .integer(0b1101))
        #expect(t["f"] == .float(-3.1415))
        #expect(t["e"] == .float(5e22))
        #expect(t["fe"] == .float(6.626e-34))
        #expect(t["inf"] == .float(-.infinity))
        #expect(t["nan"]?.double?.isNaN == true)
        #expect(t["yes"] == .boolean(true) && t["no"] == .boolean(false))
        #expect(t["odt"]?.typeName == "date-time" && t["spaced"]?.typeName == "date-time")
        #expect(t["ld"]?.typeName == "date" && t["lt"]?.typeName == "time")
    }

    @Test func multiLineStrings() throws {
        let t = try parse("""
            a = \"\"\"
            Roses are red
            Violets are blue\"\"\"
            b = \"\"\"The quick brown \\
                fox.\"\"\"
            c = \"\"\"Here are two quotation marks: "". Simple enough.\"\"\"
            d = \"\"\"Ends in a quote: \"\"\"\"
            e = '''
            The first newline is
            trimmed in raw strings.'''
            """)
        #expect(t["a"] == .string("Roses are red\nViolets are blue"))
        #expect(t["b"] == .string("The quick brown fox."))
        #expect(t["c"] == .string("Here are two quotation marks: \"\". Simple enough."))
        #expect(t["d"] == .string("Ends in a quote: \""))
        #expect(t["e"] == .string("The first newline is\ntrimmed in raw strings."))
    }

    @Test func arraysAndInlineTables() throws {
        let t = try parse("""
            nested = [ [ 1, 2 ], ["a", 'b'], ]
            lines = [
              1, # one
              2,
            ]
            point = { x = 1, y.z = 2 }
            """)
        #expect(t["nested"] == .array([.array([.integer(1), .integer(2)]), .array([.string("a"), .string("b")])]))
        #expect(t["lines"] == .array([.integer(1), .integer(2)]))
        #expect(t["point"] == .table(TOMLTable(["x": .integer(1), "y": .table(TOMLTable(["z": .integer(2)]))])))
    }

    @Test func tablesHeadersAndDottedKeys() throws {
        let t = try parse("""
            top = 1
            [dog."tater.man"]
            type.name = "pug"
            [x.y.z.w]
            [x]
            [[bind]]
            gesture = "tap"
            [[bind]]
            gesture = "circle"
            [bind.sub]
            k = 1
            """)
        #expect(t.keys == ["bind", "dog", "top", "x"])
        #expect(t["dog"]?.table?["tater.man"]?.table?["type"]?.table?["name"] == .string("pug"))
        #expect(t["x"]?.table?["y"]?.table?["z"]?.table?["w"] == .table(TOMLTable()))
        let binds = try #require(t["bind"]?.array)
        #expect(binds.count == 2)
        #expect(binds[0].table?["gesture"] == .string("tap"))
        #expect(binds[1].table?["sub"]?.table?["k"] == .integer(1))
    }

    @Test func errorsTheSpecRequiresWithTheirPlace() {
        let cases: [(String, Int, Int, String)] = [
            ("a = 1\na = 2", 2, 1, "key a is defined twice"),
            ("[t]\n[t]", 2, 1, "table [t] is defined twice"),
            ("[t]\nk.v = 1\n[t.k]", 3, 1, "table [t.k] is defined twice"),
            ("a = {}\n[a.b]", 2, 1, "[a.b]: a is already a value, not a table"),
            ("a = [1]\n[[a]]", 2, 1, "[[a]]: a is already defined, not as an array of tables"),
            ("n = 012", 1, 5, "not a value: 012"),
            ("n = 1__0", 1, 5, "not a value: 1__0"),
            ("n = 1.", 1, 5, "not a value: 1."),
            ("n = 9223372036854775808", 1, 5, "9223372036854775808 is out of range for a 64-bit integer"),
            ("s = \"open", 1, 5, "unterminated string"),
            ("s = \"a\\qb\"", 1, 7, "unknown escape \\q"),
            ("s = \"é\" x", 1, 9, "expected the end of the line"),
            ("k = { a = 1, }", 1, 14, "expected a key"),
            ("k = [1 2]", 1, 8, "expected , or ] in an array"),
            ("= 1", 1, 1, "expected a key"),
            ("k = 1979-13", 1, 5, "not a value: 1979-13"),
            ("[a\n", 1, 3, "expected ] to close the header"),
            ("s = 'tab\u{7}'", 1, 9, "control character 0x7 in a string"),
        ]
        for (text, line, column, message) in cases {
            #expect(syntaxError(text) == TOMLSyntaxError(line: line, column: column, message: message), "\(text)")
        }
    }

    @Test func nestingHasALimit() {
        let deep = String(repeating: "[", count: TOMLParser.maxNesting + 1) + String(repeating: "]", count: TOMLParser.maxNesting + 1)
        #expect(syntaxError("a = " + deep)?.message == "nested deeper than \(TOMLParser.maxNesting) levels")
        let allowed = String(repeating: "[", count: TOMLParser.maxNesting) + String(repeating: "]", count: TOMLParser.maxNesting)
        #expect(syntaxError("a = " + allowed) == nil)
    }
}
