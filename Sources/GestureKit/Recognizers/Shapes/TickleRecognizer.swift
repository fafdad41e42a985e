/// The thresholds of a tickle: fast, steady left-right scrubbing in one place.
///
/// The classic tickle recognizer (Ray Wenderlich, "UIGestureRecognizer Tutorial in iOS 5:
/// Pinches, Pans, and More!", 2011: more than 2 reversals, each after 25 pt) counts horizontal
/// reversals after a minimum travel and nothing else, so an arrow's head, a curly brace's bump
/// and a zig-zag down the screen pass too: they all reverse horizontally a few times.
/// A tickle's legs are also alike in length, flat, quick, and stay in one band of the screen.
public struct TickleRules: RecognizerRules {
    /// Travel in one horizontal direction before a reversal counts (the classic rule's 25 pt ≈ 6 mm).
    public var minTravelMM = 6.0
    public var hysteresisMM = 1.5
    /// Recognized on the frame this reversal happens ("more than 2").
    public var reversals = 3
    /// A tickle scrubs sideways; a circle's half-turn is as tall as it is wide (1.0), and an
    /// arrow's shaft, drawn fast left to right, rises at about 30° (0.55–0.7 in the tuning set).
    /// 0.5 ≈ 27°.
    public var maxSlope = 0.5
    /// Scrubbing repeats one movement; an arrow's shaft is twice its barbs or more, a brace's
    /// tips are shorter than its middle. A tickle whose first leg starts mid-way is only delayed:
    /// the run starts again at the next leg.
    public var maxLegRatio = 2.0
    /// Legs that are each flat enough but step down the screen (a zig-zag, a wavy line, a brace)
    /// are not a tickle.
    public var maxDrift = 0.8
    /// A tickle is quick; slow back-and-forth drawing (a shape's strokes) is not.
    public var maxLegSeconds = 0.6

    public init() {}

    public static let parameters: [Parameter<Self>] = [
        Parameter("min_travel_mm", \.minTravelMM, range: 1...100, was: "min_travel",
                  "Travel in one horizontal direction before a reversal counts."),
        Parameter("hysteresis_mm", \.hysteresisMM, range: 0...20, was: "hysteresis",
                  "How far the finger must come back for a turn to count: jitter is not a reversal."),
        Parameter("reversals", \.reversals, range: 1...20, "Reversals needed to recognize."),
        Parameter("max_slope", \.maxSlope, range: 0.1...5, "Vertical extent of a leg over its horizontal travel."),
        Parameter("max_leg_ratio", \.maxLegRatio, range: 1...20,
                  "Longest leg over shortest leg of one run: scrubbing repeats one movement."),
        Parameter("max_drift", \.maxDrift, range: 0.1...10,
                  "Vertical extent of the whole run over its horizontal extent."),
        Parameter("max_leg_time_s", \.maxLegSeconds, range: 0.05...10, was: "max_leg_time",
                  "Longest time one leg may take."),
    ]
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
        if !turns.isEmpty { turns.removeAll(keepingCapacity: true) }
        count = 0
        bestCount = 0
        direction = 0
        started = false
    }

    /// Feeds one position (mm) at `time` (s). Returns true when this sample completed a counted
    /// reversal.
    public mutating func add(_ p: Point, time: Double, rules: TickleRules) -> Bool {
        follow(p, time: time, hysteresisMM: rules.hysteresisMM) && turn(to: p, time: time, rules: rules)
    }

    /// `add` up to the turn: true when the finger turned back at `extreme` and is now at `p`,
    /// and `turn` must judge the leg. Only the hysteresis is read here (the recognizer inlines
    /// this for every sample; the whole rules are copied only for a turn).
    @inline(__always)
    mutating func follow(_ p: Point, time: Double, hysteresisMM: Double) -> Bool {
        guard started else {
            started = true
            legStart = p; extreme = p; legMinY = p.y; legMaxY = p.y
            legStartTime = time; extremeTime = time
            return false
        }
        // Every sample counts against the leg's flatness, also those that move straight up or
        // down without going anywhere sideways (a brace's long vertical parts).
        // min and max as the standard library's (ties and all), as branches
        // (speed: docs/architecture.md).
        if p.y < legMinY { legMinY = p.y }
        if p.y >= legMaxY { legMaxY = p.y }
        if direction == 0 {
            let dx = p.x - legStart.x
            if abs(dx) >= hysteresisMM { direction = dx > 0 ? 1 : -1 }
            extreme = p
            extremeTime = time
            return false
        }
        if (p.x - extreme.x) * direction >= 0 {
            extreme = p  // still going the same way
            extremeTime = time
            return false
        }
        return (extreme.x - p.x) * direction >= hysteresisMM
    }

    /// The finger turned back at `extreme` and is now at `p` (`follow`): judges the leg
    /// legStart → extreme and starts the next; true when the leg was counted (out of line: most
    /// samples do not turn).
    @inline(never)
    mutating func turn(to p: Point, time: Double, rules: TickleRules) -> Bool {
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
/// down, on the frame of the reversal that makes "more than 2"; fails if it lifts before.
public final class TickleRecognizer: StrokeRecognizer, DeclaredRecognizer, UntimedRecognizer {
    public static let kind = GestureKind.tickle
    public static let summary = "One finger scrubs left and right; recognized on the third reversal, finger still down."

    public let rules: TickleRules
    public private(set) var analysis = TickleAnalysis()

    public init(rules: TickleRules, context: RecognizerContext) {
        self.rules = rules
        super.init(context: context, decidesWhileDown: true)
    }

    override public func handle(_ frame: TouchFrame, events: inout [GestureEvent]) {
        take(frame, events: &events)
    }

    /// The arena's call: `handle` in line; a tickle has no deadline.
    @inline(__always)
    public func handleReportingStatus(_ frame: TouchFrame, events: inout [GestureEvent]) -> RecognizerStatus {
        take(frame, events: &events)
        return RecognizerStatus(state: state, deadline: nil)
    }

    /// The usual frame (the finger alone, moving) as StrokeRecognizer.handle takes it, with the
    /// reversal followed in line. Its sample is in the stroke already when the stroke has one this
    /// recognizer has not been told of (the arena grew it for the shapes decided at lift, or
    /// another reader did): the usual frame then costs no comparison with the stroke's last point.
    @inline(__always)
    private func take(_ frame: TouchFrame, events: inout [GestureEvent]) {
        guard state == .possible else { return }
        guard finger.movesAlone(frame) else {
            step(frame, events: &events)
            return
        }
        if takeNewSample() {
            follow(frame, events: &events)
        } else {
            offerAndFollow(frame, events: &events)
        }
    }

    /// The usual frame when no reader before this one added its sample (or the finger rests).
    @inline(never)
    private func offerAndFollow(_ frame: TouchFrame, events: inout [GestureEvent]) {
        offerAlone(frame)
        if takeNewSample() { follow(frame, events: &events) }
    }

    /// Follows the reversals with the usual frame's sample, the stroke's new last one.
    @inline(__always)
    private func follow(_ frame: TouchFrame, events: inout [GestureEvent]) {
        let p = frame.contacts[0].mm
        assert(p == lastSample.mm, "the stroke's new sample is not this frame's")
        if analysis.follow(p, time: frame.time, hysteresisMM: rules.hysteresisMM) {
            turned(to: p, time: frame.time, events: &events)
        }
    }

    override func moved(time: Double, events: inout [GestureEvent]) {
        let p = lastSample.mm
        if analysis.follow(p, time: time, hysteresisMM: rules.hysteresisMM) { turned(to: p, time: time, events: &events) }
    }

    /// The finger turned back: the leg is judged, and the reversal that makes enough recognizes.
    @inline(never)
    private func turned(to p: Point, time: Double, events: inout [GestureEvent]) {
        guard analysis.turn(to: p, time: time, rules: rules), analysis.count >= rules.reversals else { return }
        recognize(time: time, events: &events)
    }

    private func recognize(time: Double, events: inout [GestureEvent]) {
        state = .recognized
        let sample = lastSample
        var e = GestureEvent(kind: .tickle, phase: .recognized, time: time, fingers: 1, center: sample.position,
                             centerMM: sample.mm, regionName: StrokeGeometry.region(containing: sample.position, in: regions)?.internedName)
        e.reversals = analysis.count
        events.append(e)
    }

    override func clear() { analysis.reset() }
}
