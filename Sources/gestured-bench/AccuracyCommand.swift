import ArgumentParser
import Corpus
import GestureKit

/// `gestured-bench accuracy`: the recognition figures of docs/recognition.md — circle and
/// checkmark found and mistaken on the five people of the unistroke corpus, each person held
/// out in turn, and on all five.
struct AccuracyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accuracy",
        abstract: "Circle and checkmark accuracy on the unistroke corpus, leave-one-subject-out.")

    @Option(help: "Directory holding unistroke/ and unistroke-s02-s05/.")
    var fixtures = "Tests/Fixtures"

    func run() throws {
        let corpus = try UnistrokeCorpus.load(UnistrokeCorpus.sources(fixtures: fixtures))
        print(ShapeAccuracy.report(ShapeEvaluation.run(corpus)))
    }
}
