import Testing
@testable import GestureKit

/// A shape's threshold calibrated from its examples (ShapeCalibration) and what `learn` advises
/// (ShapeAdvice): the floor for a shape far from the others, stricter beside a look-alike, the
/// default for a single example, an operator's threshold kept; the advice's rules one by one.
@Suite struct ShapeCalibrationTests {
    typealias P = Point
    static let z = TaughtShapeTests.z
    static let n = Synthetic.polyline([P(x: 80, y: 120), P(x: 80, y: 80), P(x: 120, y: 120), P(x: 120, y: 80)], step: 0.8)

    static func shape(_ name: String, _ pts: [Point], seeds: ClosedRange<UInt64>) -> TaughtShape {
        TaughtShape(name: name, examples: seeds.map { TaughtShapeTests.example(pts, seed: $0) })
    }

    @Test func aShapeFarFromTheOthersGetsTheFloor() throws {
        let shapes = [Self.shape("zorro", Self.z, seeds: 1...5), Self.shape("enn", Self.n, seeds: 6...10)]
        let c = ShapeCalibration(0, of: shapes)
        #expect(c.within.count == 5 && c.within.allSatisfy { $0 > ShapeCalibration.floor })
        let nearest = try #require(c.nearestOther)
        #expect(nearest.shape == "enn" && (1...5).contains(nearest.example) && nearest.score < ShapeCalibration.floor)
        #expect(c.threshold == ShapeCalibration.floor)
        let calibrated = ShapeCalibration.calibrating(0, of: shapes)
        #expect(calibrated.threshold == ShapeCalibration.floor && calibrated.thresholdOrigin == .calibrated)
        #expect(ShapeAdvice.advice(c, examples: 5, threshold: calibrated.threshold) == [.onePerson(people: 0)])
    }

    /// A Z drawn by two people, one of whom starts with a hook: each one's examples agree, but
    /// against the other's they score lower — strangers will too — so the shape's floor goes
    /// down to the across-people scores' quantile, and `learn` says why. Nobody named: the floor.
    @Test func peopleWhoDrawItDifferentlyLowerTheFloor() throws {
        let hooked = Synthetic.polyline([P(x: 90, y: 94), P(x: 80, y: 80), P(x: 120, y: 80), P(x: 80, y: 120), P(x: 120, y: 120)], step: 0.8)
        var shape = TaughtShape(name: "zorro", examples: (1...4).map { TaughtShapeTests.example(Self.z, seed: $0) }
                                + (5...8).map { TaughtShapeTests.example(hooked, seed: $0) })
        for i in shape.examples.indices { shape.examples[i].person = i < 4 ? "ann" : "bob" }
        let c = ShapeCalibration(0, of: [shape])
        #expect(c.people == 2 && c.across.count == 8 && c.across == c.across.sorted())
        #expect(c.within.allSatisfy { $0 > ShapeCalibration.floor }, "\(c.within)")
        let q = ShapeCalibration.quantile(c.across, ShapeCalibration.acrossQuantile)
        #expect(q < ShapeCalibration.floor, "\(c.across)")
        #expect(c.shapeFloor == max(ShapeCalibration.lowest, q))
        let t = try #require(c.threshold)
        #expect(c.shapeFloor < ShapeCalibration.floor && t >= ShapeCalibration.lowest)
        let separating = try #require(c.separating)  // not inside #expect: Swift 6.0's Testing cannot expand it there
        #expect(t == ShapeCalibration.threshold(separating: separating, floor: c.shapeFloor))
        let advice = ShapeAdvice.advice(c, examples: 8, threshold: t)
        #expect(advice.contains { if case .peopleDisagree(people: 2, _, _, _) = $0 { true } else { false } }, "\(advice)")
        #expect(advice.map(\.description).joined().contains("2 people draw it differently"), "\(advice)")

        var anonymous = shape
        for i in anonymous.examples.indices { anonymous.examples[i].person = "" }
        let a = ShapeCalibration(0, of: [anonymous])
        #expect(a.people == 0 && a.across.isEmpty && a.threshold == ShapeCalibration.floor)
        #expect(ShapeAdvice.advice(a, examples: 8, threshold: ShapeCalibration.floor).contains(.onePerson(people: 0)))
        // One person's examples have no one else's to be scored against.
        for i in anonymous.examples.indices { anonymous.examples[i].person = "ann" }
        let one = ShapeCalibration(0, of: [anonymous])
        #expect(one.people == 1 && one.across.isEmpty && one.threshold == ShapeCalibration.floor)
        #expect(ShapeAdvice.onePerson(people: 1).description.hasPrefix("every example is one person's"))
    }

    /// The floor goes down to the quantile of the across-people scores, never below `lowest`,
    /// never above the floor for that many examples.
    @Test func theFloorFollowsTheAcrossPeopleScores() {
        #expect(ShapeCalibration.quantile([0.1, 0.2, 0.3, 0.4, 0.5], 0.25) == 0.2)
        #expect(abs(ShapeCalibration.quantile([0.1, 0.2], 0.5) - 0.15) < 1e-12)
        #expect(ShapeCalibration.quantile([0.3], 0.25) == 0.3 && ShapeCalibration.quantile([], 0.25) == 0)
        let across = [0.80, 0.87, 0.89, 0.93, 0.95]
        #expect(ShapeCalibration.floor(examples: 10, across: [], floor: 0.91, lowest: 0.86, quantile: 0.25) == 0.91)
        #expect(ShapeCalibration.floor(examples: 10, across: across, floor: 0.91, lowest: 0.86, quantile: 0.25) == 0.87)
        #expect(ShapeCalibration.floor(examples: 10, across: across, floor: 0.91, lowest: 0.88, quantile: 0.25) == 0.88)
        #expect(ShapeCalibration.floor(examples: 10, across: across, floor: 0.91, lowest: 0.86, quantile: 0.75) == 0.91)
        #expect(ShapeCalibration.floor(examples: 10, across: across, floor: 0.91, lowest: 0.86, quantile: 0) == 0.86)
        // Many examples: the floor that rises with them is the ceiling.
        #expect(ShapeCalibration.floor(examples: 120, across: [0.99], floor: 0.91, lowest: 0.86, quantile: 0) == TaughtShape.defaultThreshold)
    }

    @Test func theFloorRisesWithManyExamples() {
        #expect([1, 5, 20, 70, 120, 200].map(ShapeCalibration.floor(examples:)) == [0.91, 0.91, 0.91, 0.915, 0.92, 0.92])
    }

    @Test func aLookAlikeMakesItStricterAndIsReported() throws {
        // Two shapes taught with the same Z: each one's threshold rises to where half its own
        // examples still pass, and the advice names the other.
        let shapes = [Self.shape("zorro", Self.z, seeds: 1...5), Self.shape("zed", Self.z, seeds: 11...15)]
        let c = ShapeCalibration(0, of: shapes)
        let t = try #require(c.threshold)
        #expect(t > ShapeCalibration.floor)
        #expect(abs(t - ShapeCalibration.median(c.within)) < 0.001)
        let advice = ShapeAdvice.advice(c, examples: 5, threshold: t)
        #expect(advice.contains { if case .confused(shape: "zed", _, _) = $0 { true } else { false } }, "\(advice)")
        #expect(advice.map(\.description).joined().contains("will be confused with zed"))
    }

    @Test func oneExampleKeepsTheDefaultAndAnOperatorsThresholdIsKept() {
        let one = [Self.shape("zorro", Self.z, seeds: 1...1)]
        #expect(ShapeCalibration(0, of: one).threshold == nil)
        let d = ShapeCalibration.calibrating(0, of: one)
        #expect(d.threshold == TaughtShape.defaultThreshold && d.thresholdOrigin == .default)
        var set = Self.shape("zorro", Self.z, seeds: 1...5)
        set.threshold = 0.97
        set.thresholdOrigin = .set
        #expect(ShapeCalibration.calibrating(0, of: [set]) == set)
    }

    @Test func anExampleUnlikeTheOthersIsNamed() {
        var shape = Self.shape("zorro", Self.z, seeds: 1...5)
        shape.examples.insert(TaughtShapeTests.example(Synthetic.arc(radius: 20, turns: 1), seed: 3), at: 2)
        let c = ShapeCalibration(0, of: [shape])
        let advice = ShapeAdvice.advice(c, examples: 6, threshold: c.threshold ?? 0)
        let misfits = advice.compactMap { if case .doesNotFit(let e, _) = $0 { e } else { nil } }
        #expect(misfits == [3], "\(advice)")
        #expect(advice.first?.description.hasPrefix("example 3 does not fit the others (score 0.") == true, "\(advice)")
    }

    @Test(arguments: [
        // within, examples, threshold → advice
        ([0.95, 0.96, 0.94], 3, 0.915, [ShapeAdvice.fewExamples(count: 3)]),
        ([0.95, 0.96, 0.94, 0.95, 0.96], 5, 0.915, []),
        ([0.95, 0.99, 0.93, 0.95, 0.96], 5, 0.915, [ShapeAdvice.wideSpread(low: 0.93, high: 0.99)]),
        ([0.95, 0.90, 0.94, 0.95, 0.96], 5, 0.915, [ShapeAdvice.doesNotFit(example: 2, score: 0.90), .wideSpread(low: 0.90, high: 0.96)]),
        ([0.95, 0.96, 0.94, 0.95, 0.96], 5, 0.97, []),  // a strict threshold (a look-alike's) is no misfit
        ([0.92, 0.93, 0.90, 0.93, 0.94], 5, 0.90, []),  // at the threshold fits
        ([0.95, 0.96, 0.89, 0.95, 0.96], 5, 0.90, [ShapeAdvice.doesNotFit(example: 3, score: 0.89), .wideSpread(low: 0.89, high: 0.96)]),
    ])
    func adviceRules(within: [Double], examples: Int, threshold: Double, expected: [ShapeAdvice]) {
        // Two people whose examples agree across them: no advice about people.
        let c = ShapeCalibration(within: within, nearestOther: ShapeCalibration.Score(shape: "far", example: 1, score: 0.5), separating: 0.5,
                                 across: [0.95, 0.96], people: 2)
        #expect(ShapeAdvice.advice(c, examples: examples, threshold: threshold) == expected)
    }

    @Test func aNearShapeWithinTheMarginIsAConfusion() {
        let near = ShapeCalibration.Score(shape: "x", example: 4, score: 0.91)
        let c = ShapeCalibration(within: [0.95, 0.96, 0.95, 0.96, 0.95], nearestOther: near, separating: 0.92)
        #expect(ShapeAdvice.advice(c, examples: 5, threshold: 0.915) == [.confused(shape: "x", example: 4, score: 0.91), .onePerson(people: 0)])
        #expect(ShapeAdvice.advice(c, examples: 5, threshold: 0.93) == [.onePerson(people: 0)])
        #expect(ShapeAdvice.confused(shape: "x", example: 4, score: 0.91).description == "will be confused with x: its example 4 scores 0.91 against this shape")
    }
}
