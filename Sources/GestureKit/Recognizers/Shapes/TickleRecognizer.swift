/// The thresholds of a tickle.
public struct TickleRules: Sendable, Equatable {
    /// Travel in one horizontal direction before a reversal counts (the tutorial: 25 pt ≈ 6 mm).
    public var minTravelMM: Double = 6
    /// How far the finger must come back before the turn counts: jitter is not a reversal.
    public var hysteresisMM: Double = 1.5
    /// Reversals needed; recognized on the frame this one happens ("more than 2").
    public var reversals: Int = 3
    /// Vertical extent of a leg over its horizontal travel. A tickle scrubs sideways; a circle's
    /// half-turn is as tall as it is wide (1.0) and must not count. A steeper leg starts over.
    public var maxSlope: Double = 0.6

    public init() {}
}

/// Horizontal reversals of one finger, followed online: the analysis the recognizer decides
/// from and the trace draws.
public struct TickleAnalysis: Sendable {
    /// The points where counted reversals happened (mm), in order; capacity is kept across strokes.
    public private(set) var reversalPoints: [Point] = []
    /// Reversals counted in the current run (a steep leg starts a new run).
    public private(set) var count = 0
    /// +1 moving right, −1 moving left, 0 not known yet.
    private var direction = 0.0
    private var legStart = Point.zero
    /// The furthest point in the current direction, and the vertical range of the current leg.
    private var extreme = Point.zero
    private var legMinY = 0.0, legMaxY = 0.0
    private var started = false

    public init() { reversalPoints.reserveCapacity(16) }

    public mutating func reset() {
        reversalPoints.removeAll(keepingCapacity: true)
        count = 0
        direction = 0
        started = false
    }

    /// Feeds one position (mm). Returns true when this sample completed a counted reversal.
    public mutating func add(_ p: Point, rules: TickleRules) -> Bool {
        guard started else {
            started = true
            legStart = p; extreme = p; legMinY = p.y; legMaxY = p.y
            return false
        }
        legMinY = min(legMinY, p.y)
        legMaxY = max(legMaxY, p.y)
        if direction == 0 {
            let dx = p.x - legStart.x
            if abs(dx) >= rules.hysteresisMM { direction = dx > 0 ? 1 : -1 }
            extreme = p
            return false
        }
        if (p.x - extreme.x) * direction >= 0 {
            extreme = p  // still going the same way
            return false
        }
        guard (extreme.x - p.x) * direction >= rules.hysteresisMM else { return false }
        // The finger turned back at `extreme`.
        let travel = abs(extreme.x - legStart.x)
        let slope = (legMaxY - legMinY) / max(travel, 1e-9)
        var counted = false
        if travel >= rules.minTravelMM && slope <= rules.maxSlope {
            count += 1
            reversalPoints.append(extreme)
            counted = true
        } else if slope > rules.maxSlope {
            count = 0  // not a sideways scrub: start over
        }
        direction = -direction
        legStart = extreme
        legMinY = min(extreme.y, p.y); legMaxY = max(extreme.y, p.y)
        extreme = p
        return counted
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
            Parameter("max_slope", default: 0.6, range: 0.1...5,
                      summary: "vertical extent of a leg over its horizontal travel"),
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
            if analysis.add(p, rules: rules), analysis.count >= rules.reversals {
                state = .recognized
                let mm = stroke.mm[stroke.count - 1]
                let pos = stroke.positions[stroke.count - 1]
                var region: String?
                for r in regions where r.rect.contains(pos) {
                    if region == nil { region = r.name }
                }
                var e = GestureEvent(kind: .tickle, phase: .recognized, time: frame.time, fingers: 1,
                                     center: pos, centerMM: mm, region: region)
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
