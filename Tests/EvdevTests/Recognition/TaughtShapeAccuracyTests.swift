import Corpus
import GestureKit
import Testing

/// The targets for taught shapes (own shape: TPR ≥ 97 %, anyone's: TPR ≥ 95 %, FPR ≤ 0.5 % each),
/// on the five people of the unistroke corpus with
/// eight shapes taught and eight as the open set, at the shipped default threshold (the full
/// tables, with more random draws: `gestured-bench shapes`, docs/recognition.md).
@Suite struct TaughtShapeAccuracyTests {
    static let accuracy: TaughtShapeAccuracy? = try? TaughtShapeAccuracy(corpus: UnistrokeCorpus.load(UnistrokeCorpus.sources(fixtures: Fixture.root)))

    @Test func operatorTeachesOwnShape() throws {
        let a = try #require(Self.accuracy, "the unistroke corpus did not load")
        let r = TaughtShapeAccuracy.rates(a.ownShape(k: 5, repetitions: 2, seed: 1, acceptedOnly: true), threshold: TaughtShape.defaultThreshold)
        print("taught shapes, own shape K = 5 (2 draws): TPR \(r.tpr), FPR \(r.fpr)")
        #expect(r.tpr >= 0.97)
        #expect(r.fpr <= 0.005)
    }

    /// Calibrated thresholds (ShapeCalibration, the shipped floor), user-dependent K = 5: the
    /// target TPR ≥ 98 % at FPR ≤ 0.5 % (held out, with the floor chosen on the other people:
    /// `gestured-bench shapes`).
    @Test func calibratedThresholdsOwnShape() throws {
        let a = try #require(Self.accuracy, "the unistroke corpus did not load")
        let r = TaughtShapeAccuracy.rates(a.ownShape(k: 5, repetitions: 2, seed: 1, calibrated: true), floor: ShapeCalibration.floor)
        print("taught shapes, calibrated, own shape K = 5 (2 draws): TPR \(r.tpr), FPR \(r.fpr)")
        #expect(r.tpr >= 0.98)
        #expect(r.fpr <= 0.005)
    }

    @Test func taughtOnceDrawnByAnyone() throws {
        let a = try #require(Self.accuracy, "the unistroke corpus did not load")
        let r = TaughtShapeAccuracy.rates(a.anyone(perPerson: nil, seed: 1, acceptedOnly: true), threshold: TaughtShape.defaultThreshold)
        print("taught shapes, anyone's (four people teach, the fifth is tested): TPR \(r.tpr), FPR \(r.fpr)")
        #expect(r.tpr >= 0.95)
        #expect(r.fpr <= 0.005)
    }

    /// Taught as issue 50 measures it: N random strokes of each teacher per shape, each example
    /// naming its teacher, none of anyone else's; calibrated with the teachers known.
    @Test func eachTeacherTeachesTheirOwnStrokes() throws {
        let a = try #require(Self.accuracy, "the unistroke corpus did not load")
        var rng = SeededRandom(seed: 1)
        let shapes = a.shapes(perTeacher: 2, teachers: ["s01", "s03"], rng: &rng)
        #expect(shapes.map(\.name) == TaughtShapeAccuracy.taught)
        for shape in shapes {
            #expect(shape.examples.map(\.person).sorted() == ["s01", "s01", "s03", "s03"], "\(shape.name)")
            #expect(Set(shape.examples.map(\.points)).count == 4, "\(shape.name): an example drawn twice")
            #expect(shape.thresholdOrigin == .calibrated && ShapeCalibration(0, of: [shape]).people == 2)
        }
    }

    /// `learn`'s teachers' report on the tuning set, each shape taught by 5 strokes of each of
    /// the five people: the left brace and the arrow, drawn differently by different people
    /// (docs/recognition.md), are the shapes whose teachers disagree; the others' agree.
    @Test func teachersReportNamesTheShapesPeopleDrawDifferently() throws {
        let a = try #require(Self.accuracy, "the unistroke corpus did not load")
        var rng = SeededRandom(seed: 1)
        let shapes = a.shapes(perTeacher: 5, teachers: Set(a.subjects), rng: &rng)
        let reports = shapes.indices.map { TeacherReport($0, of: shapes) }
        #expect(reports.allSatisfy { $0.teachers.count == 5 && $0.unnamed == 0 })
        #expect(reports.filter(\.teachersDisagree).map(\.shape).sorted() == ["arrow", "left_curly_brace"],
                "\(reports.map { "\($0.shape) \($0.consistency ?? 0)" })")
        let brace = try #require(reports.first { $0.shape == "left_curly_brace" })
        #expect(brace.advice.contains { if case .drawnDifferently = $0 { true } else { false } }, "\(brace.advice)")
    }

    /// Targets over several draws are judged on the mean, and the range is the draws' extremes:
    /// one draw under the target does not fail a mean above it, and one draw's FPR over the
    /// budget shows in the range.
    @Test func overDrawsJudgesTheMean() {
        let draws = [(0.955, 0.002), (0.97, 0.006), (0.965, 0.001)].map { TaughtShapeAccuracy.Rates(tpr: $0.0, fpr: $0.1, openSetAccepted: 0) }
        let over = TaughtShapeAccuracy.OverDraws(draws)
        #expect(abs(over.meanTPR - 0.9633333) < 1e-6)
        #expect(abs(over.meanFPR - 0.003) < 1e-12)
        #expect(over.tprRange == 0.955...0.97)
        #expect(over.fprRange == 0.001...0.006)
        #expect(over.meets(tpr: 0.96, maxFPR: 0.005))
        #expect(!over.meets(tpr: 0.965, maxFPR: 0.005))
        #expect(!over.meets(tpr: 0.96, maxFPR: 0.0025))
        #expect(!TaughtShapeAccuracy.OverDraws([]).meets(tpr: 0, maxFPR: 1))
    }
}
