import Foundation
import Testing
@testable import GestureKit

/// The tuning set (Tests/Fixtures/unistroke, see its README) straight into the recognizers, and
/// the same strokes rotated, scaled, jittered and resampled at other rates: how the rules hold
/// beyond the exact strokes they were tuned on. (The recording path through the real evemu
/// parser and contact tracker is EvdevTests' UnistrokeTests.)
///
/// The reader here is deliberately tiny (single touch, ABS_MT_POSITION_X/Y at 10 units/mm, a
/// stroke per tracking id) because GestureKitTests must not depend on Evdev.
@Suite struct TuningSetTests {
    struct Sample { var shape: String; var name: String; var mm: [Point] }

    static let directory: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("Fixtures/unistroke").path
    }()

    static func load() throws -> [Sample] {
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".evemu") }.sorted()
        var out: [Sample] = []
        for f in files {
            let shape = String(f.dropLast(".evemu".count))
            let text = try String(contentsOfFile: directory + "/" + f, encoding: .utf8)
            var x = 0.0, y = 0.0, down = false, current: [Point] = [], index = 0
            for line in text.split(separator: "\n") where line.hasPrefix("E:") {
                let p = line.split(separator: " ")
                guard p.count == 5, let v = Int(p[4]) else { continue }
                switch (p[2], p[3]) {
                case ("0003", "0035"): x = Double(v) / 10
                case ("0003", "0036"): y = Double(v) / 10
                case ("0003", "0039"):
                    if v < 0 || v == 4_294_967_295 {
                        index += 1
                        out.append(Sample(shape: shape, name: "\(shape)#\(index)", mm: current))
                        current = []
                        down = false
                    } else { down = true }
                case ("0000", "0000") where down: current.append(Point(x: x, y: y))
                default: break
                }
            }
        }
        return out
    }

    /// What the circle and checkmark recognizers say about one stroke.
    static func classify(_ mm: [Point]) -> (circle: Bool, check: Bool, tickle: Bool) {
        let c = CircleRecognizer(), k = CheckmarkRecognizer(), t = TickleRecognizer()
        return (!Synthetic.play(mm, into: c).isEmpty, !Synthetic.play(mm, into: k).isEmpty,
                !Synthetic.play(mm, into: t).isEmpty)
    }

    struct Tally {
        var strokes = [String: Int](), circles = [String: Int](), checks = [String: Int](), tickles = [String: Int]()
        mutating func add(_ shape: String, _ r: (circle: Bool, check: Bool, tickle: Bool)) {
            strokes[shape, default: 0] += 1
            if r.circle { circles[shape, default: 0] += 1 }
            if r.check { checks[shape, default: 0] += 1 }
            if r.tickle { tickles[shape, default: 0] += 1 }
        }
        func rate(_ d: [String: Int], _ shape: String) -> Double { Double(d[shape, default: 0]) / Double(max(1, strokes[shape, default: 0])) }
        var othersTotal: Int { strokes.filter { $0.key != "circle" && $0.key != "check" }.values.reduce(0, +) }
        var falseCircles: Int { circles.filter { $0.key != "circle" }.values.reduce(0, +) }
        var falseChecks: Int { checks.filter { $0.key != "check" }.values.reduce(0, +) }
        /// None of the 16 shapes is a tickle.
        var falseTickles: Int { tickles.values.reduce(0, +) }
        var summary: String {
            strokes.keys.sorted().map { s in
                "\(s): \(strokes[s]!) strokes, circle \(circles[s, default: 0]), checkmark \(checks[s, default: 0]), tickle \(tickles[s, default: 0])"
            }.joined(separator: "\n")
        }
    }

    @Test func everyCircleAndCheckAndNothingElse() throws {
        let samples = try Self.load()
        #expect(samples.count == 480)
        var tally = Tally()
        for s in samples { tally.add(s.shape, Self.classify(s.mm)) }
        print("tuning set confusion:\n" + tally.summary)
        #expect(tally.rate(tally.circles, "circle") == 1)
        #expect(tally.rate(tally.checks, "check") == 1)
        #expect(tally.falseCircles == 0)
        #expect(tally.falseChecks == 0)
        #expect(tally.falseTickles == 0)
    }

    /// Every stroke at 4 rotations (±15°, ±30°… only small ones for checks, whose direction is
    /// the gesture), 3 scales, 2 jitter levels and half the sample rate.
    @Test func variationsOfTheTuningStrokes() throws {
        let samples = try Self.load()
        var tally = Tally()
        var seed: UInt64 = 1
        for s in samples {
            let rotations = s.shape == "check" || s.shape == "v" || s.shape == "caret"
                ? [-0.15, 0.15] : [-0.5, -0.2, 0.3, 1.2]
            for rot in rotations {
                for scale in [0.4, 1.0, 2.5] {
                    for jitter in [0.0, 0.6] {
                        seed &+= 1
                        var pts = Synthetic.transformed(s.mm, scale: scale, rotation: rot, jitter: jitter, seed: seed)
                        if seed % 2 == 0 { pts = pts.enumerated().filter { $0.offset % 2 == 0 || $0.offset == pts.count - 1 }.map(\.element) }
                        tally.add(s.shape, Self.classify(pts))
                    }
                }
            }
        }
        let circleRate = tally.rate(tally.circles, "circle"), checkRate = tally.rate(tally.checks, "check")
        let falseRate = Double(tally.falseCircles + tally.falseChecks) / Double(tally.othersTotal)
        print("variations confusion:\n" + tally.summary)
        let tickleRate = Double(tally.falseTickles) / Double(tally.strokes.values.reduce(0, +))
        print("variations: circles found \(circleRate), checks found \(checkRate), others mistaken \(falseRate), "
              + "taken for a tickle \(tally.falseTickles) (\(tickleRate))")
        #expect(circleRate >= 0.99)
        #expect(checkRate >= 0.97)
        #expect(falseRate <= 0.005)
        #expect(tickleRate <= 0.005)
    }

    /// Rounded rectangles from sharp to half-round, several aspects and sizes: none is a circle.
    @Test func roundedRectanglesAreNotCircles() {
        var mistaken: [String] = []
        for rho in [0.0, 0.1, 0.2, 0.3] {
            for aspect in [1.0, 1.3, 1.8] {
                for half in [10.0, 25, 60] {
                    for rot in [0.0, 0.4] {
                        let pts = Synthetic.transformed(Synthetic.roundedRect(halfW: half * aspect, halfH: half, rho: rho),
                                                        rotation: rot, jitter: 0.02 * half, seed: UInt64(half))
                        if Self.classify(pts).circle { mistaken.append("rho \(rho) aspect \(aspect) half \(half) rot \(rot)") }
                    }
                }
            }
        }
        #expect(mistaken.isEmpty, "\(mistaken)")
    }
}
