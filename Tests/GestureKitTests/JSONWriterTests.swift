import Testing
@testable import GestureKit

@Suite struct JSONWriterTests {
    @Test func escapesAndRoundsNumbers() {
        var w = JSONWriter()
        w.beginObject()
        w.key("name"); w.string("a \"b\"\n\u{1}")
        w.key("x"); w.number(0.123456)
        w.key("n"); w.number(3.0)
        w.key("bad"); w.number(.nan)
        w.endObject()
        #expect(w.text == #"{"name":"a \"b\"\n\u0001","x":0.1235,"n":3,"bad":null}"#)
    }

    @Test func eventCarriesDeviceAndOptionalFields() {
        var e = GestureEvent(kind: .circle, phase: .recognized, time: 12.5, fingers: 1,
                             center: Point(x: 0.5, y: 0.25), centerMM: Point(x: 100, y: 50))
        e.direction = .clockwise
        e.radiusMM = 31.4
        let line = e.json(device: DeviceLabel(name: "Pad", id: "pad-1"))
        #expect(line.hasPrefix(#"{"time":12.5,"device":"Pad","device_id":"pad-1","gesture":"circle","phase":"recognized""#))
        #expect(line.contains(#""radius_mm":31.4"#))
        #expect(line.contains(#""direction":"clockwise""#))
        #expect(!line.contains("scale"))
    }
}

@Suite struct JSONNumberTests {
    private func written(_ x: Double, _ decimals: Int) -> String {
        var w = JSONWriter()
        w.number(x, decimals: decimals)
        return w.text
    }

    @Test func formatsLikeDecimalRounding() {
        #expect(written(0, 4) == "0")
        #expect(written(-0.00001, 4) == "0")
        #expect(written(-1.5, 2) == "-1.5")
        #expect(written(1330495986.113, 6) == "1330495986.113")
        #expect(written(0.30000000000000004, 4) == "0.3")
        #expect(written(0.0625, 4) == "0.0625")
        #expect(written(0.00625, 4) == "0.0063")
        #expect(written(99.999, 2) == "100")
        #expect(written(1e20, 2) == "1e+20")
        #expect(written(.infinity, 2) == "null")
    }

    @Test func keepsUnicodeAndEscapesControlCharacters() {
        var w = JSONWriter()
        w.string("Touch “écran” \u{7}")
        #expect(w.text == "\"Touch “écran” \\u0007\"")
    }
}
