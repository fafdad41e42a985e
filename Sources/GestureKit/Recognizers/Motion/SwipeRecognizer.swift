/// Swipe: a quick, roughly straight stroke of 1–10 fingers, recognized when the last finger
/// lifts (as lisgd and libinput-gestures users expect: the whole stroke decides).
///
/// Recognized at lift when the group's displacement ≥ max(`min_distance_mm`,
/// `min_distance_fraction` × screen extent along the stroke's axis), the stroke took at most
/// `max_duration_s` (first touch to last lift) and is straight (displacement ≥ `min_straightness`
/// × centroid path length). Reports direction (4 or 8 sectors), fingers, distance, mean speed
/// and velocity, duration; `center` is where the stroke started.
///
/// Fails early — so that pan, which waits for it, can start — when the stroke bends (straightness
/// lost after `min_distance_mm` of path), or when `max_duration_s` passes with fingers still down.
///
/// Fingers: the most fingers down at once during the stroke. Fingers may land and lift in any
/// order (real 4-finger drags land over ~100 ms); the displacement is accumulated over the
/// fingers present in consecutive frames, so a late finger does not bend the stroke.
public final class SwipeRecognizer: DeclaredRecognizer, GroupReader {
    public static let kind = GestureKind.swipe
    public static let summary = "A quick straight stroke of 1–10 fingers, recognized at lift: direction, fingers, distance, speed."

    public private(set) var state = RecognizerState.possible

    public func deadline(in context: borrowing FrameContext) -> Double? {
        state == .possible ? context.group.deadline(after: rules.maxDuration) : nil
    }

    public let rules: SwipeRules
    /// 4 or 8 compass sectors.
    let sectors: Int
    /// Its context when it is handed frames itself (GroupReader).
    public let own = ReaderContext()

    public init(rules: SwipeRules, context: RecognizerContext) {
        self.rules = rules
        sectors = rules.directions >= 6 ? 8 : 4
        bendCheckPathMM = rules.minDistanceMM
    }

    /// The path length (mm) from which the stroke could have bent (`follow`). Until the path is
    /// `min_distance_mm` long the bend rule is off. After a check the stroke passed with
    /// displacement D and path L, a further path of s mm leaves displacement ≥ D − s and path
    /// L + s: it cannot have bent while s < (D − straightness · L) / (1 + straightness). So the
    /// square root is taken on a few frames of a straight stroke, not on every frame (the margin
    /// of 10⁻⁹ · L covers rounding many times over: the check, when made, is the same as ever).
    private var bendCheckPathMM: Double

    /// A frame changes it only while it is possible (GroupReader).
    public var followsFrames: Bool { state == .possible }

    /// While fingers are down, the checks that can fail the stroke early; at lift, the decision
    /// (`decide`, not inlined: its event kept out of the frame-by-frame path). The calls out of
    /// line are the last thing done: the usual frame saves no register.
    @inline(__always)
    public func follow(_ frame: TouchFrame, _ context: borrowing FrameContext, events: inout [GestureEvent]) {
        if context.group.duration > rules.maxDuration || context.group.maxDownCount > rules.maxFingers {
            state = .failed
            return
        }
        if context.group.pathLengthMM >= bendCheckPathMM {
            followMayBend(frame, context, events: &events)
        } else if context.group.downCount == 0 {
            decide(frame, context, events: &events)
        }
    }

    /// `follow` once the stroke may have bent: the bend rule (displacement < `min_straightness`
    /// × path), and the path length before which it cannot fail again.
    @inline(never)
    private func followMayBend(_ frame: TouchFrame, _ context: borrowing FrameContext, events: inout [GestureEvent]) {
        let path = context.group.pathLengthMM, straight = rules.minStraightness * path
        let displacement = context.group.translationMM.length
        if displacement < straight {
            state = .failed  // bent: a circle, a scrub, a pan that turned
            return
        }
        bendCheckPathMM = path + (displacement - straight - 1e-9 * path) / (1 + rules.minStraightness)
        if context.group.downCount == 0 { decide(frame, context, events: &events) }
    }

    /// The stroke's verdict once every finger has lifted.
    @inline(never)
    private func decide(_ frame: TouchFrame, _ context: borrowing FrameContext, events: inout [GestureEvent]) {
        let d = context.group.translationMM
        let direction = Compass.direction(of: d, sectors: sectors)
        let extent: Double
        switch direction {
        case .left, .right: extent = frame.surface.widthMM
        case .up, .down: extent = frame.surface.heightMM
        default: extent = (frame.surface.widthMM + frame.surface.heightMM) / 2
        }
        let needed = max(rules.minDistanceMM, rules.minDistanceFraction * extent)
        guard d.length >= needed, context.group.maxDownCount >= rules.minFingers else {
            state = .failed
            return
        }
        state = .recognized
        var e = context.group.strokeEvent(.swipe, time: frame.time)
        e.direction = direction
        events.append(e)
    }

    public func tick(now: Double, in context: borrowing FrameContext, events: inout [GestureEvent]) {
        if let due = deadline(in: context), now >= due { state = .failed }
    }

    public func cancel(time: Double, events: inout [GestureEvent]) { state.cancel() }

    public func reset() {
        state = .possible
        own.clear()
        bendCheckPathMM = rules.minDistanceMM
    }
}

/// What a swipe is tuned by (the config's `[device.swipe]`).
public struct SwipeRules: RecognizerRules {
    public var minFingers = 1
    public var maxFingers = 10
    public var directions = 4
    public var minDistanceMM = 20.0
    public var minDistanceFraction = 0.0
    public var maxDuration = 2.5
    public var minStraightness = 0.75

    public init() {}

    public static let parameters = Parameter<Self>.fingers(\.minFingers, \.maxFingers, range: 1...10) + [
        Parameter("directions", \.directions, range: 4...8, "Compass sectors: 4 (up, down, left, right) or 8 (with diagonals)."),
        Parameter("min_distance_mm", \.minDistanceMM, range: 1...1000, "Shortest swipe."),
        Parameter("min_distance_fraction", \.minDistanceFraction, range: 0...1,
                  "Shortest swipe as a fraction of the screen's width or height (0 = off)."),
        Parameter("max_duration_s", \.maxDuration, range: 0.05...10, was: "max_duration",
                  "Longest swipe, first touch to last lift."),
        Parameter("min_straightness", \.minStraightness, range: 0...1,
                  "Displacement over path length; below it the stroke is not a swipe."),
    ]
}
