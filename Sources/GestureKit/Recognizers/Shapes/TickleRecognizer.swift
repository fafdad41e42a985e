/// The thresholds of a tickle: fast, steady left-right scrubbing in one place.
///
/// The classic tickle recognizer (Ray Wenderlich, "UIGestureRecognizer Tutorial in iOS 5:
/// Pinches, Pans, and More!", 2011: more than 2 reversals, each after 25 pt) counts horizontal
/// reversals after a minimum travel and nothing else, so an arrow's head, a curly brace's bump
/// and a zig-zag down the screen pass too: they all reverse horizontally a few times.
/// A tickle's legs are also alike in length, flat, quick, and stay in one band of the screen.
public struct TickleRules: Sendable, Equatable {
    /// Travel in one horizontal direction before a reversal counts (the classic rule's 25 pt ≈ 6 mm).
    public var minTravelMM: Double = 6
    /// How far the finger must come back before the turn counts: jitter is not a reversal.
    public var hysteresisMM: Double = 1.5
    /// Reversals needed; recognized on the frame this one happens ("more than 2").
    public var reversals: Int = 3
    /// Vertical extent of a leg over its horizontal travel (0.5 ≈ 27°). A tickle scrubs
    /// sideways; a circle's half-turn is as tall as it is wide (1.0), and an arrow's shaft,
    /// drawn fast left to right, rises at about 30° (0.55–0.7 in the tuning set).
    public var maxSlope: Double = 0.5
    /// Longest leg over shortest leg of one run. Scrubbing repeats one movement; an arrow's
    /// shaft is twice its barbs or more, a brace's tips are shorter than its middle. A tickle
    /// whose first leg starts mid-way is only delayed: the run starts again at the next leg.
    public var maxLegRatio: Double = 2
    /// Vertical extent of the whole run over its horizontal extent: legs that are each flat
    /// enough but step down the screen (a zig-zag, a wavy line, a brace) are not a tickle.
    public var maxDrift: Double = 0.8
    /// Longest time one leg may take, seconds: a tickle is quick; slow back-and-forth drawing
    /// (a shape's strokes) is not.
    public var maxLegSeconds: Double = 0.6

    public init() {}
}

/// How the tickle rules judged a leg. `counted`: the leg joined the run (or started one).
/// `short`, `steep`, `slow`: the leg is no tickle leg; the run ends with nothing. `uneven`,
/// `drifts`: the leg does not fit the run; the run ends and this leg starts a new one.
public enum TickleLegVerdict: Sendable, Equatable {
    case counted
    case short
    case steep
    case slow
    case uneven
    case drifts

    public var reason: String {
        switch self {
        case .counted: "counted"
        case .short: "leg shorter than the minimum travel"
        case .steep: "leg not horizontal enough"
        case .slow: "leg took too long"
        case .uneven: "legs too different in length"
        case .drifts: "run drifts vertically"
        }
    }
}

/// One horizontal turn of the finger, as the tickle rules judged the leg that ended there.
public struct TickleTurn: Sendable, Equatable {
    public var point: Point
    public var verdict: TickleLegVerdict
    /// The leg's horizontal travel (mm), duration (s), and vertical extent over its travel.
    public var travelMM: Double
    public var seconds: Double
    public var slope: Double
}

/// Horizontal reversals of one finger, followed online: the analysis the recognizer decides
/// from and the trace draws. A run is the current sequence of counted legs; a leg that breaks a
/// rule ends the run (and starts a new one when it is itself a good first leg).
public struct TickleAnalysis: Sendable {
    /// Every turn, counted or not, in order; capacity is kept across strokes.
    public private(set) var turns: [TickleTurn] = []
    /// Reversals counted in the current run.
    public private(set) var count = 0
    /// The most reversals any run of this stroke reached.
    public private(set) var bestCount = 0
    /// +1 moving right, −1 moving left, 0 not known yet.
    private var direction = 0.0
    private var legStart = Point.zero
    private var legStartTime = 0.0
    /// The furthest point in the current direction (and when), and the vertical range of the leg.
    private var extreme = Point.zero
    private var extremeTime = 0.0
    private var legMinY = 0.0, legMaxY = 0.0
    /// The current run: its shortest and longest leg, and its box.
    private var runMinTravel = 0.0, runMaxTravel = 0.0
    private var runBox = Rect.empty
    private var started = false

    public init() { turns.reserveCapacity(16) }

    /// The points where counted reversals happened (mm), in order.
    public var reversalPoints: [Point] { turns.filter { $0.verdict == .counted }.map(\.point) }

    public mutating func reset() {
        turns.removeAll(keepingCapacity: true)
        count = 0
        bestCount = 0
        direction = 0
        started = false
    }

    /// Feeds one position (mm) at `time` (s). Returns true when this sample completed a counted
    /// reversal.
    public mutating func add(_ p: Point, time: Double, rules: TickleRules) -> Bool {
        guard started else {
            started = true
            legStart = p; extreme = p; legMinY = p.y; legMaxY = p.y
            legStartTime = time; extremeTime = time
            return false
        }
        // Every sample counts against the leg's flatness, also those that move straight up or
        // down without going anywhere sideways (a brace's long vertical parts).
        legMinY = min(legMinY, p.y)
        legMaxY = max(legMaxY, p.y)
        if direction == 0 {
            let dx = p.x - legStart.x
            if abs(dx) >= rules.hysteresisMM { direction = dx > 0 ? 1 : -1 }
            extreme = p
            extremeTime = time
            return false
        }
        if (p.x - extreme.x) * direction >= 0 {
            extreme = p  // still going the same way
            extremeTime = time
            return false
        }
        guard (extreme.x - p.x) * direction >= rules.hysteresisMM else { return false }
        // The finger turned back at `extreme`: judge the leg legStart → extreme.
        let verdict = judgeLeg(rules: rules)
        let travel = abs(extreme.x - legStart.x)
        let rise = max(legMaxY, legStart.y) - min(legMinY, legStart.y)
        turns.append(TickleTurn(point: extreme, verdict: verdict, travelMM: travel,
                                seconds: extremeTime - legStartTime, slope: rise / max(travel, 1e-9)))
        direction = -direction
        legStart = extreme
        legStartTime = extremeTime
        legMinY = min(extreme.y, p.y); legMaxY = max(extreme.y, p.y)
        extreme = p
        extremeTime = time
        return verdict == .counted
    }

    /// Adds the leg that just ended to the run, or ends the run; returns the leg's verdict.
    private mutating func judgeLeg(rules: TickleRules) -> TickleLegVerdict {
        let travel = abs(extreme.x - legStart.x)
        let legBox = Rect(minX: min(legStart.x, extreme.x), minY: min(legMinY, legStart.y),
                          maxX: max(legStart.x, extreme.x), maxY: max(legMaxY, legStart.y))
        // Rules of the leg on its own: a leg that breaks one cannot start a run either.
        let own: TickleLegVerdict? =
            if travel < rules.minTravelMM { .short }
            else if legBox.height > rules.maxSlope * travel { .steep }
            else if extremeTime - legStartTime > rules.maxLegSeconds { .slow }
            else { nil }
        if let own {
            count = 0
            return own
        }
        // Rules of the run: the leg must be like the others and keep the run in its band.
        var box = runBox
        box.include(Point(x: legBox.minX, y: legBox.minY))
        box.include(Point(x: legBox.maxX, y: legBox.maxY))
        let lo = min(runMinTravel, travel), hi = max(runMaxTravel, travel)
        let verdict: TickleLegVerdict =
            if count == 0 { .counted }
            else if hi > rules.maxLegRatio * lo { .uneven }
            else if box.height > rules.maxDrift * box.width { .drifts }
            else { .counted }
        if verdict == .counted && count > 0 {
            count += 1
            runMinTravel = lo; runMaxTravel = hi; runBox = box
        } else {
            // This leg starts a new run (the first leg of a run is only judged on its own).
            count = 1
            runMinTravel = travel; runMaxTravel = travel; runBox = legBox
        }
        bestCount = max(bestCount, count)
        return verdict
    }
}

/// Fast left-right scrubbing with one finger (discrete): recognized while the finger is still
/// down, on the frame of the reversal that makes "more than 2".
public final class TickleRecognizer: GestureRecognizer {
    public static let spec = RecognizerSpec(
        name: "tickle", kind: .tickle,
        summary: "one finger scrubs left and right; recognized on the third reversal",
        parameters: [
            Parameter("min_travel", default: 6, range: 1...100, unit: "mm",
                      summary: "travel in one direction before a reversal counts"),
            Parameter("hysteresis", default: 1.5, range: 0...20, unit: "mm",
                      summary: "how far the finger must come back for a turn to count"),
            Parameter("reversals", default: 3, range: 1...20, integer: true, summary: "reversals to recognize"),
            Parameter("max_slope", default: 0.5, range: 0.1...5,
                      summary: "vertical extent of a leg over its horizontal travel"),
            Parameter("max_leg_ratio", default: 2, range: 1...20,
                      summary: "longest leg over shortest leg: scrubbing repeats one movement"),
            Parameter("max_drift", default: 0.8, range: 0.1...10,
                      summary: "vertical extent of the scrubbing over its horizontal extent"),
            Parameter("max_leg_time", default: 0.6, range: 0.05...10, unit: "s",
                      summary: "longest time one leg may take"),
        ],
        make: { TickleRecognizer(setup: $0) })

    public let name = "tickle"
    public let kind = GestureKind.tickle
    public private(set) var state = RecognizerState.possible
    public var deadline: Double? { nil }

    public let rules: TickleRules
    public let regions: [Region]
    public private(set) var analysis = TickleAnalysis()
    public private(set) var stroke = Stroke()
    private var finger = SingleFinger()

    public init(rules: TickleRules = TickleRules(), regions: [Region] = []) {
        self.rules = rules
        self.regions = regions
    }

    public convenience init(setup: RecognizerSetup) {
        var r = TickleRules()
        let p = setup.parameters
        r.minTravelMM = p["min_travel"]
        r.hysteresisMM = p["hysteresis"]
        r.reversals = Int(p["reversals"])
        r.maxSlope = p["max_slope"]
        r.maxLegRatio = p["max_leg_ratio"]
        r.maxDrift = p["max_drift"]
        r.maxLegSeconds = p["max_leg_time"]
        self.init(rules: r, regions: setup.regions)
    }

    public func handle(_ frame: TouchFrame, events: inout [GestureEvent]) {
        guard state == .possible else { return }
        let before = stroke.count
        switch finger.step(frame, into: &stroke) {
        case .idle: return
        case .secondFinger: state = .failed
        case .cancelled: state = .cancelled
        case .lifted: state = .failed  // lifted before enough reversals
        case .moved:
            guard stroke.count > before, let p = stroke.mm.last else { return }
            if analysis.add(p, time: frame.time, rules: rules), analysis.count >= rules.reversals {
                state = .recognized
                let mm = stroke.mm[stroke.count - 1]
                let pos = stroke.positions[stroke.count - 1]
                var e = GestureEvent(kind: .tickle, phase: .recognized, time: frame.time, fingers: 1,
                                     center: pos, centerMM: mm,
                                     region: StrokeGeometry.region(containing: pos, in: regions)?.name)
                e.reversals = analysis.count
                events.append(e)
            }
        }
    }

    public func tick(now: Double, events: inout [GestureEvent]) {}

    public func cancel(time: Double, events: inout [GestureEvent]) {
        if !state.isFinished { state = .cancelled }
    }

    public func reset() {
        state = .possible
        analysis.reset()
        stroke.removeAll()
        finger.reset()
    }
}
