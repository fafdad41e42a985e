import Evdev
import Foundation
import GestureKit
import Testing

/// The arena's routing rules (ArenaRouting: which live recognizers are handed a frame) change
/// what the arena does, never what it recognizes: every fixture played with the rules on and
/// with them off (every live recognizer handed every frame) gives the same gestures, byte for
/// byte, cancelled provisional ones included.
@Suite struct ArenaRoutingTests {
    /// Every recording of the fixtures: the recordings, the synthetic panel, the recorded HID
    /// panel, and one person's unistroke corpus (the shapes, drawn 480 times).
    static var fixtures: [String] {
        let root = Fixture.root
        var paths: [String] = []
        for dir in ["recordings", "synthetic", "hid-touchscreens/recorded", "unistroke"] {
            guard let walk = FileManager.default.enumerator(atPath: root + "/" + dir) else { continue }
            for case let rel as String in walk where rel.hasSuffix(".events") || rel.hasSuffix(".evemu") || rel.hasSuffix(".yml") {
                paths.append(root + "/" + dir + "/" + rel)
            }
        }
        return paths.sorted()
    }

    static func play(_ r: Recording, routes: Bool) -> [String] {
        let pipeline = DevicePipeline(info: r.info, arena: RecognizerCatalog.defaultArena(routes: routes))
        let label = pipeline.label
        var out: [String] = []
        pipeline.play(r.events[...]) { out.append($0.json(device: label)) }
        _ = pipeline.fireDeadlines(until: .infinity) { out.append($0.json(device: label)) }
        return out
    }

    @Test func everyFixtureGivesTheSameGesturesWithTheRulesOnAndOff() throws {
        let paths = Self.fixtures
        #expect(paths.count >= 45, "fixtures not found under \(Fixture.root)")
        var gestures = 0
        for path in paths {
            let r = try Recording.load(path: path)
            let on = Self.play(r, routes: true), off = Self.play(r, routes: false)
            #expect(on == off, "\(path): routed \(on.count) events, unrouted \(off.count)")
            gestures += on.count
        }
        // The comparison is not of nothing: the fixtures make hundreds of gestures.
        #expect(gestures > 500, "\(gestures) gesture events")
    }
}
