import ArgumentParser
import Corpus
import GestureKit

/// `gestured-bench shapes`: taught-shape accuracy on the five people (docs/recognition.md) and
/// the cost of matching a stroke against a device's shapes (docs/performance.md).
struct ShapesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shapes",
        abstract: "Taught shapes: accuracy on the unistroke corpus (open set, leave-one-subject-out) and matching cost.")

    @OptionGroup var corpus: CorpusOption

    @Option(help: "Examples per taught shape when a person teaches their own.")
    var k = 5

    @Option(help: "Random draws of those examples per person.")
    var repetitions = 10

    @Option(help: "Seed of the random draws.")
    var seed: UInt64 = 1

    @Option(help: "Draws (seeds seed, seed + 1, …) over which the two targets are measured; judged on the mean.")
    var draws = 5

    @Option(help: "The matcher's turning correction exponent, in quarters (0: none), for comparison.")
    var turningExponent = ShapeMatcher.turningExponent

    @Flag(help: "Only the matching cost.")
    var speedOnly = false

    func run() throws {
        if !speedOnly {
            var accuracy = TaughtShapeAccuracy(corpus: try corpus.load())
            accuracy.turningExponent = turningExponent
            print(accuracy.report(k: k, repetitions: repetitions, seed: seed, draws: draws))
        }
        print(ShapeMatchBench().run().table())
    }
}
