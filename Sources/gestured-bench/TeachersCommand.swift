import ArgumentParser
import Corpus
import GestureKit

/// `gestured-bench teachers`: `learn`'s teachers' report (TeacherReport) for the corpus's taught
/// shapes, each taught by a few strokes of every person — what an operator who asked the five
/// tuning people to draw each shape would read.
struct TeachersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "teachers",
        abstract: "learn's teachers' report for the taught shapes, taught by a few strokes of each person of the corpus.")

    @OptionGroup var corpus: CorpusOption

    @Option(help: "Random strokes per shape from each person.")
    var perTeacher = 2

    @Option(help: "Seed of the random draw.")
    var seed: UInt64 = 1

    func run() throws {
        let a = TaughtShapeAccuracy(corpus: try corpus.load())
        var rng = SeededRandom(seed: seed)
        let shapes = a.shapes(perTeacher: perTeacher, teachers: Set(a.subjects), rng: &rng)
        for i in shapes.indices { print(TeacherReport(i, of: shapes).lines.joined(separator: "\n")) }
    }
}
