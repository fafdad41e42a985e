import CMallocCounter
import Corpus
import GestureKit

/// The cost of matching one stroke against every shape of a device: 20 shapes × 10 examples
/// (budget: ≤ 50 µs per stroke, so matching never delays the lift's event), from a raw stroke of 120 samples to the verdict
/// (resampling, direction profile, DTW against every example with early abandoning).
/// The strokes are synthetic (random smooth curves), so the figure needs no data set.
struct ShapeMatchBench {
    var shapes = 20
    var examples = 10
    var strokes = 2000
    var runs = 15

    struct Result {
        var shapes: Int
        var examples: Int
        var nsPerStroke: Distribution
        var allocationsPerStroke: Double
        var recognized: Int

        func table() -> String {
            """
            taught-shape matching, \(shapes) shapes × \(examples) examples, per stroke (raw 120 samples → verdict), thread CPU time:
              median \(Int(nsPerStroke.median / 1000)) µs, p99 of passes \(Int(nsPerStroke.p99 / 1000)) µs, \
            allocations \(allocationsPerStroke), strokes recognized \(recognized)
            """
        }
    }

    /// A smooth random stroke: a sum of three random circles' motions (an epicycle curve).
    static func curve(_ rng: inout SeededRandom, samples: Int) -> [Point] {
        var terms: [(r: Double, f: Double, p: Double)] = []
        for _ in 0..<3 {
            terms.append((Double.random(in: 5...30, using: &rng), Double.random(in: -3...3, using: &rng),
                          Double.random(in: 0...(2 * Double.pi), using: &rng)))
        }
        return (0..<samples).map { i in
            let t = Double(i) / Double(samples - 1) * 2 * Double.pi
            var p = Point(x: 50, y: 50)
            for term in terms {
                p += Point(x: Angle.cos(term.f * t + term.p), y: Angle.sin(term.f * t + term.p)) * term.r
            }
            return p
        }
    }

    static func stroke(_ points: [Point]) -> Stroke {
        var s = Stroke()
        for p in points { s.append(mm: p, position: p / 100) }
        return s
    }

    func run() -> Result {
        var rng = SeededRandom(seed: 7)
        var taught: [TaughtShape] = []
        var resampled: [Point] = []
        for s in 0..<shapes {
            let base = Self.curve(&rng, samples: 120)
            var list: [ShapeExample] = []
            for _ in 0..<examples {
                // Each example: the base shape with a little random wobble, as one person redraws it.
                let wobbled = base.map { $0 + Point(x: Double.random(in: -1...1, using: &rng), y: Double.random(in: -1...1, using: &rng)) }
                Self.stroke(wobbled).resample(count: ShapeExample.pointCount, into: &resampled)
                list.append(ShapeExample(points: ShapeExample.normalized(resampled), source: "bench", date: ""))
            }
            taught.append(TaughtShape(name: "shape\(s)", examples: list))
        }
        let matcher = ShapeMatcher(shapes: taught)
        // Half the strokes are redrawn taught shapes, half are other curves.
        var inputs: [Stroke] = []
        for i in 0..<strokes {
            if i % 2 == 0, let ex = taught[i / 2 % shapes].examples.first {
                inputs.append(Self.stroke(ex.points.map { $0 * 40 + Point(x: 50, y: 50) }))
            } else {
                inputs.append(Self.stroke(Self.curve(&rng, samples: 120)))
            }
        }
        var scratch = ShapeMatcher.Scratch()
        var recognized = 0
        func pass() {
            recognized = 0
            for s in inputs {
                s.resample(count: ShapeExample.pointCount, into: &resampled)
                if matcher.best(resampled, scratch: &scratch) != nil { recognized += 1 }
            }
        }
        pass()
        var samples: [Double] = []
        for _ in 0..<runs {
            let t0 = Stopwatch.threadCPU()
            pass()
            samples.append(Double(Stopwatch.threadCPU() - t0) / Double(strokes))
        }
        let before = gestured_allocation_count()
        gestured_count_allocations(1)
        pass()
        gestured_count_allocations(0)
        let allocations = gestured_allocation_count() - before
        return Result(shapes: shapes, examples: examples, nsPerStroke: Distribution(samples),
                      allocationsPerStroke: Double(allocations) / Double(strokes), recognized: recognized)
    }
}
