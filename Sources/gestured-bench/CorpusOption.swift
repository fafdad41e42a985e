import ArgumentParser
import Corpus

/// `--fixtures`: where the unistroke corpus is, for the commands measured on it.
struct CorpusOption: ParsableArguments {
    @Option(help: "Directory holding unistroke/ and unistroke-s02-s05/.")
    var fixtures = "Tests/Fixtures"

    /// The five people's strokes, read through the real recording parser and tracker.
    func load() throws -> UnistrokeCorpus {
        try UnistrokeCorpus.load(UnistrokeCorpus.sources(fixtures: fixtures))
    }
}
