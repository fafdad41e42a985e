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
