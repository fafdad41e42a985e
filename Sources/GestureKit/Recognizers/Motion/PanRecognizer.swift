/// Pan: a group of fingers dragged across the surface (UIPanGestureRecognizer).
///
/// possible → began (the centroid moved `slop_mm` with `min_fingers`…`max_fingers` down)
/// → changed on every frame that moves the group → ended when the last finger lifts.
/// Fails if every finger lifts before it began.
///
/// Translation is measured from the centroid at touch-down (as UIKit does), so `began` already
/// carries the slop; it accumulates frame by frame, so fingers landing or lifting do not make
/// it jump. Velocity is the centroid's, over the last `velocity_window` seconds.
///
/// Resting point on `ended` (UIKit's deceleration, as in "Designing Fluid Interfaces", WWDC
/// 2018): content decelerating by a factor `d` per millisecond travels
/// v · d / (1 − d) / 1000 seconds' worth of its velocity before it stops, so
///     resting = centroid + velocity · d / (1000 · (1 − d))
/// With UIScrollView's normal rate d = 0.998 that is centroid + 0.499 s · velocity.
public final class PanRecognizer: GestureRecognizer {
    public static let spec = RecognizerSpec(
        name: "pan", kind: .pan,
        summary: "Fingers dragged across the surface: translation, velocity, projected resting point.",
        parameters: [
            Parameter("min_fingers", default: 1, range: 1...10, integer: true, summary: "Fewest fingers."),
            Parameter("max_fingers", default: 10, range: 1...10, integer: true, summary: "Most fingers."),
            Parameter("slop_mm", default: 4, range: 0...50, unit: "mm",
                      summary: "Centroid movement before the pan begins."),
            Parameter("velocity_window", default: 0.08, range: 0.01...0.5, unit: "s",
                      summary: "Velocity is measured over this much recent motion."),
            Parameter("deceleration_rate", default: 0.998, range: 0.9...0.9999,
                      summary: "Fling deceleration per millisecond (UIKit normal: 0.998)."),
        ],
        make: { PanRecognizer(setup: $0) })

    public let name = "pan"
    public let kind = GestureKind.pan
    public private(set) var state = RecognizerState.possible
    public var deadline: Double? { nil }

    let minFingers: Int
    let maxFingers: Int
    let slopMM: Double
    let decelerationRate: Double
    private var group = ContactGroup()
    /// Fingers down in the latest frame that had any (an `ended` event reports the last count).
    private var fingers = 0
    private var velocity: VelocityTracker

    public init(setup: RecognizerSetup) {
        let p = setup.parameters
        minFingers = Int(p["min_fingers"])
        maxFingers = Int(p["max_fingers"])
        slopMM = p["slop_mm"]
        decelerationRate = p["deceleration_rate"]
        velocity = VelocityTracker(window: p["velocity_window"])
    }

    public convenience init(_ overrides: [String: Double] = [:]) {
        self.init(setup: RecognizerSetup(parameters: ParameterValues(Self.spec.parameters, overrides: overrides)))
    }

    public func handle(_ frame: TouchFrame, events: inout [GestureEvent]) {
        guard !state.isFinished else { return }
        group.update(frame)
        if group.downCount > 0 { fingers = group.downCount }
        // The virtual centroid: start + accumulated translation, immune to fingers changing.
        velocity.add(time: frame.time, mm: group.startCentroidMM + group.translationMM,
                     position: group.startCentroidPosition + group.translationPosition)
        switch state {
        case .possible:
            if group.downCount == 0 {
                state = .failed
            } else if group.downCount >= minFingers, group.downCount <= maxFingers,
                      group.translationMM.length >= slopMM {
                state = .began
                events.append(event(.began, time: frame.time))
            }
        case .began, .changed:
            if group.downCount == 0 {
                state = .ended
                var e = event(.ended, time: frame.time)
                let factor = decelerationRate / (1000 * (1 - decelerationRate))
                let v = velocity.velocity()
                e.restingPointMM = group.centroidMM + v.mm * factor
                e.restingPoint = group.centroidPosition + v.position * factor
                events.append(e)
            } else if group.changedInLastFrame {
                state = .changed
                events.append(event(.changed, time: frame.time))
            }
        default:
            break
        }
    }

    private func event(_ phase: GesturePhase, time: Double) -> GestureEvent {
        var e = GestureEvent(kind: .pan, phase: phase, time: time, fingers: fingers,
                             center: group.centroidPosition, centerMM: group.centroidMM)
        e.translationMM = group.translationMM
        e.velocityMM = velocity.velocity().mm
        return e
    }

    public func tick(now: Double, events: inout [GestureEvent]) {}

    public func cancel(time: Double, events: inout [GestureEvent]) {
        state.cancel(events: &events) { event(.cancelled, time: time) }
    }

    public func reset() {
        state = .possible
        group.removeAll()
        velocity.removeAll()
        fingers = 0
    }
}
