/// Edge swipe: a stroke whose first finger lands within `depth_mm` of a screen edge (or of two
/// edges: a corner) and moves inward. Recognized as soon as the group has moved
/// `min_distance_mm` inward — while the fingers are still down, so that it wins over swipe and
/// pan, which wait for it to fail.
///
/// Fails at once when the first finger lands away from every edge; fails when the stroke first
/// reaches `min_distance_mm` along or away from its edge, when `max_duration` passes, or at lift.
/// Edge: the edge the stroke moves away from; a corner when it starts near two edges and moves
/// diagonally away from both (8-sector direction).
public final class EdgeSwipeRecognizer: GestureRecognizer {
    public static let spec = RecognizerSpec(
        name: "edge_swipe", kind: .edgeSwipe,
        summary: "A stroke from a screen edge or corner inward: edge, direction, fingers.",
        parameters: [
            Parameter("min_fingers", default: 1, range: 1...10, integer: true, summary: "Fewest fingers."),
            Parameter("max_fingers", default: 10, range: 1...10, integer: true, summary: "Most fingers."),
            Parameter("depth_mm", default: 6, range: 0.5...100, unit: "mm",
                      summary: "How close to an edge the first finger must land."),
            Parameter("min_distance_mm", default: 15, range: 1...1000, unit: "mm",
                      summary: "Inward travel before the edge swipe is recognized."),
            Parameter("max_duration", default: 1.5, range: 0.05...10, unit: "s",
                      summary: "Time allowed to travel min_distance_mm."),
        ],
        make: { EdgeSwipeRecognizer(setup: $0) })

    public let name = "edge_swipe"
    public let kind = GestureKind.edgeSwipe
    public private(set) var state = RecognizerState.possible
    public var deadline: Double? {
        state == .possible && group.downCount > 0 ? group.firstTime + maxDuration : nil
    }

    let minFingers: Int
    let maxFingers: Int
    let depthMM: Double
    let minDistanceMM: Double
    let maxDuration: Double
    private var group = ContactGroup()
    private var nearLeft = false, nearRight = false, nearTop = false, nearBottom = false

    public init(setup: RecognizerSetup) {
        let p = setup.parameters
        minFingers = Int(p["min_fingers"])
        maxFingers = Int(p["max_fingers"])
        depthMM = p["depth_mm"]
        minDistanceMM = p["min_distance_mm"]
        maxDuration = p["max_duration"]
    }

    public convenience init(_ overrides: [String: Double] = [:]) {
        self.init(setup: RecognizerSetup(parameters: ParameterValues(Self.spec.parameters, overrides: overrides)))
    }

    public func handle(_ frame: TouchFrame, events: inout [GestureEvent]) {
        guard state == .possible else { return }
        let first = group.isEmpty
        group.update(frame)
        if first {
            guard let c = frame.contacts.first(where: { $0.phase == .began }) else {
                state = .failed  // joined mid-contact: not an edge swipe
                return
            }
            nearLeft = c.mm.x <= depthMM
            nearRight = c.mm.x >= frame.surface.widthMM - depthMM
            nearTop = c.mm.y <= depthMM
            nearBottom = c.mm.y >= frame.surface.heightMM - depthMM
            if !(nearLeft || nearRight || nearTop || nearBottom) {
                state = .failed
                return
            }
        }
        if group.duration > maxDuration || group.maxDownCount > maxFingers {
            state = .failed
            return
        }
        let d = group.translationMM
        if d.length >= minDistanceMM {
            guard let edge = inwardEdge(of: d), group.downCount >= minFingers else {
                state = .failed
                return
            }
            state = .recognized
            var e = GestureEvent(kind: .edgeSwipe, phase: .recognized, time: frame.time, fingers: group.maxDownCount,
                                 center: group.startCentroidPosition, centerMM: group.startCentroidMM)
            e.edge = edge
            e.direction = Compass.direction(of: d, sectors: 8)
            e.distanceMM = d.length
            let duration = max(group.duration, 1e-3)
            e.speedMM = d.length / duration
            e.velocityMM = d / duration
            e.duration = group.duration
            events.append(e)
        } else if group.downCount == 0 {
            state = .failed
        }
    }

    /// The edge or corner the displacement `d` moves away from, if it started there.
    private func inwardEdge(of d: Point) -> Edge? {
        switch Compass.direction(of: d, sectors: 8) {
        case .downRight where nearTop && nearLeft: return .topLeft
        case .downLeft where nearTop && nearRight: return .topRight
        case .upRight where nearBottom && nearLeft: return .bottomLeft
        case .upLeft where nearBottom && nearRight: return .bottomRight
        default: break
        }
        switch Compass.direction(of: d, sectors: 4) {
        case .right where nearLeft: return .left
        case .left where nearRight: return .right
        case .down where nearTop: return .top
        case .up where nearBottom: return .bottom
        default: return nil
        }
    }

    public func tick(now: Double, events: inout [GestureEvent]) {
        if state == .possible, group.downCount > 0, now >= group.firstTime + maxDuration {
            state = .failed
        }
    }

    public func cancel(time: Double, events: inout [GestureEvent]) {
        if !state.isFinished { state = .failed }
    }

    public func reset() {
        state = .possible
        group.removeAll()
        nearLeft = false; nearRight = false; nearTop = false; nearBottom = false
    }
}
