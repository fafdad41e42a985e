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

    @OptionGroup var corpus: CorpusOption

    func run() throws {
        print(ShapeAccuracy.report(ShapeEvaluation.run(try corpus.load())))
    }
}
