/// Pan: a group of fingers dragged across the surface (UIPanGestureRecognizer).
///
/// possible → began (the centroid moved `slop_mm` with `min_fingers`…`max_fingers` down)
/// → changed on every frame that moves the group → ended when the last finger lifts.
/// Fails if every finger lifts before it began.
///
/// Translation is measured from the centroid at touch-down (as UIKit does), so `began` already
/// carries the slop; it accumulates frame by frame, so fingers landing or lifting do not make
/// it jump. Velocity is the centroid's, over the last `velocity_window_s` seconds.
///
/// Resting point on `ended` (UIKit's deceleration, as in "Designing Fluid Interfaces", WWDC
/// 2018): content decelerating by a factor `d` per millisecond travels
/// v · d / (1 − d) / 1000 seconds' worth of its velocity before it stops, so
///     resting = centroid + velocity · d / (1000 · (1 − d))
/// With UIScrollView's normal rate d = 0.998 that is centroid + 0.499 s · velocity.
public final class PanRecognizer: DeclaredRecognizer, UntimedRecognizer, ChangeReporting, GroupReader {
    public static let kind = GestureKind.pan
    public static let summary = "Fingers dragged across the surface: translation, velocity, projected resting point."

    public let rules: PanRules

    public private(set) var state = RecognizerState.possible
    public var reportsChanges = true

    /// Its context when it is handed frames itself (GroupReader).
    public let own = ReaderContext()
    /// Fingers down in the latest frame that had any (an `ended` event reports the last count).
    private var fingers = 0
    private var velocity: VelocityTracker

    public init(rules: PanRules, context: RecognizerContext) {
        self.rules = rules
        velocity = VelocityTracker(window: rules.velocityWindow)
    }

    /// A frame changes it until it has finished (GroupReader).
    public var followsFrames: Bool { !state.isFinished }

    /// A frame costs a sample of the velocity and a few comparisons; the events are built out of
    /// line (`report`, `end`), so that a frame that builds none pays nothing for them.
    @inline(__always)
    public func follow(_ frame: TouchFrame, _ context: borrowing FrameContext, events: inout [GestureEvent]) {
        let down = context.group.downCount
        if down > 0 { fingers = down }
        // The virtual centroid: start + accumulated translation, immune to fingers changing.
        velocity.add(time: frame.time, mm: context.group.startCentroidMM + context.group.translationMM,
                     position: context.group.startCentroidPosition + context.group.translationPosition)
        switch state {
        case .possible:
            if down == 0 {
                state = .failed
            } else if down >= rules.minFingers, down <= rules.maxFingers,
                      context.group.translationMM.length >= rules.slopMM {
                state = .began
                report(.began, context, time: frame.time, events: &events)
            }
        case .began, .changed:
            if down == 0 {
                end(context, time: frame.time, events: &events)
            } else if context.group.changedInLastFrame {
                state = .changed
                if reportsChanges { report(.changed, context, time: frame.time, events: &events) }
            }
        default:
            break
        }
    }

    @inline(never)
    private func report(_ phase: GesturePhase, _ context: borrowing FrameContext, time: Double,
                        events: inout [GestureEvent]) {
        events.append(event(phase, context, time: time))
    }

    /// The last finger lifted: `ended`, with where the content would come to rest.
    @inline(never)
    private func end(_ context: borrowing FrameContext, time: Double, events: inout [GestureEvent]) {
        state = .ended
        let v = velocity.velocity()
        var e = event(.ended, context, time: time, velocity: v.mm)
        let factor = rules.decelerationRate / (1000 * (1 - rules.decelerationRate))
        e.restingPointMM = context.group.centroidMM + v.mm * factor
        e.restingPoint = context.group.centroidPosition + v.position * factor
        events.append(e)
    }

    /// `velocity`: the tracker's, when the caller has measured it already (`end`).
    private func event(_ phase: GesturePhase, _ context: borrowing FrameContext, time: Double,
                       velocity v: Point? = nil) -> GestureEvent {
        var e = context.group.event(.pan, phase, time: time, fingers: fingers)
        e.translationMM = context.group.translationMM
        e.velocityMM = v ?? velocity.velocity().mm
        return e
    }

    public func cancel(time: Double, in context: borrowing FrameContext, events: inout [GestureEvent]) {
        state.cancel(events: &events) { event(.cancelled, context, time: time) }
    }

    public func reset() {
        state = .possible
        own.clear()
        velocity.removeAll()
        fingers = 0
    }
}

/// What a pan is tuned by (the config's `[device.pan]`).
public struct PanRules: RecognizerRules {
    public var minFingers = 1
    public var maxFingers = 10
    public var slopMM = 4.0
    public var velocityWindow = 0.08
    /// UIScrollView's normal rate.
    public var decelerationRate = 0.998

    public init() {}

    public static let parameters = Parameter<Self>.fingers(\.minFingers, \.maxFingers, range: 1...10) + [
        Parameter("slop_mm", \.slopMM, range: 0...50, "Centroid movement before the pan begins."),
        Parameter("velocity_window_s", \.velocityWindow, range: 0.01...0.5, was: "velocity_window",
                  "Velocity is measured over this much recent motion."),
        Parameter("deceleration_rate", \.decelerationRate, range: 0.9...0.9999,
                  "Fling deceleration per millisecond (UIKit normal: 0.998)."),
    ]
}
