/// Edge swipe: a stroke whose first finger lands within `depth_mm` of a screen edge (or of two
/// edges: a corner) and moves inward. Recognized as soon as the group has moved
/// `min_distance_mm` inward — while the fingers are still down, so that it wins over swipe and
/// pan, which wait for it to fail.
///
/// Fails at once when the first finger lands away from every edge; fails when the stroke first
/// reaches `min_distance_mm` along or away from its edge, when `max_duration_s` passes, or at lift.
/// Edge: the edge the stroke moves away from; a corner when it starts near two edges and moves
/// diagonally away from both (8-sector direction).
public final class EdgeSwipeRecognizer: DeclaredRecognizer, GroupReader {
    public static let kind = GestureKind.edgeSwipe
    public static let summary = "A stroke from a screen edge or corner inward: edge, direction, fingers."

    public let rules: EdgeSwipeRules

    public private(set) var state = RecognizerState.possible

    public func deadline(in context: borrowing FrameContext) -> Double? {
        state == .possible ? context.group.deadline(after: rules.maxDuration) : nil
    }

    /// Its context when it is handed frames itself (GroupReader).
    public let own = ReaderContext()
    private var nearLeft = false, nearRight = false, nearTop = false, nearBottom = false

    public init(rules: EdgeSwipeRules, context: RecognizerContext) {
        self.rules = rules
    }

    /// A frame changes it only while it is possible (GroupReader).
    public var followsFrames: Bool { state == .possible }

    public func follow(_ frame: TouchFrame, _ context: borrowing FrameContext, events: inout [GestureEvent]) {
        if context.group.frameCount == 1 {
            guard let c = frame.contacts.first(where: { $0.phase == .began }) else {
                state = .failed  // joined mid-contact: not an edge swipe
                return
            }
            nearLeft = c.mm.x <= rules.depthMM
            nearRight = c.mm.x >= frame.surface.widthMM - rules.depthMM
            nearTop = c.mm.y <= rules.depthMM
            nearBottom = c.mm.y >= frame.surface.heightMM - rules.depthMM
            if !(nearLeft || nearRight || nearTop || nearBottom) {
                state = .failed
                return
            }
        }
        if context.group.duration > rules.maxDuration || context.group.maxDownCount > rules.maxFingers {
            state = .failed
            return
        }
        let d = context.group.translationMM
        if d.length >= rules.minDistanceMM {
            guard let edge = inwardEdge(of: d), context.group.downCount >= rules.minFingers else {
                state = .failed
                return
            }
            state = .recognized
            var e = context.group.strokeEvent(.edgeSwipe, time: frame.time)
            e.edge = edge
            e.direction = Compass.direction(of: d, sectors: 8)
            events.append(e)
        } else if context.group.downCount == 0 {
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

    public func tick(now: Double, in context: borrowing FrameContext, events: inout [GestureEvent]) {
        if let due = deadline(in: context), now >= due { state = .failed }
    }

    public func cancel(time: Double, events: inout [GestureEvent]) { state.cancel() }

    public func reset() {
        state = .possible
        own.clear()
        nearLeft = false; nearRight = false; nearTop = false; nearBottom = false
    }
}

/// What an edge swipe is tuned by (the config's `[device.edge_swipe]`).
public struct EdgeSwipeRules: RecognizerRules {
    public var minFingers = 1
    public var maxFingers = 10
    public var depthMM = 6.0
    public var minDistanceMM = 15.0
    public var maxDuration = 1.5

    public init() {}

    public static let parameters = Parameter<Self>.fingers(\.minFingers, \.maxFingers, range: 1...10) + [
        Parameter("depth_mm", \.depthMM, range: 0.5...100, "How close to an edge the first finger must land."),
        Parameter("min_distance_mm", \.minDistanceMM, range: 1...1000, "Inward travel before the edge swipe is recognized."),
        Parameter("max_duration_s", \.maxDuration, range: 0.05...10, was: "max_duration",
                  "Time allowed to travel min_distance_mm."),
    ]
}
