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

    @Flag(help: "Only the matching cost.")
    var speedOnly = false

    func run() throws {
        if !speedOnly {
            let accuracy = TaughtShapeAccuracy(corpus: try corpus.load())
            print(accuracy.report(k: k, repetitions: repetitions, seed: seed))
        }
        print(ShapeMatchBench().run().table())
    }
}
