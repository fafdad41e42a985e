/// Swipe: a quick, roughly straight stroke of 1–10 fingers, recognized when the last finger
/// lifts (as lisgd and libinput-gestures users expect: the whole stroke decides).
///
/// Recognized at lift when the group's displacement ≥ max(`min_distance_mm`,
/// `min_distance_fraction` × screen extent along the stroke's axis), the stroke took at most
/// `max_duration` (first touch to last lift) and is straight (displacement ≥ `min_straightness`
/// × centroid path length). Reports direction (4 or 8 sectors), fingers, distance, mean speed
/// and velocity, duration; `center` is where the stroke started.
///
/// Fails early — so that pan, which waits for it, can start — when the stroke bends (straightness
/// lost after `min_distance_mm` of path), or when `max_duration` passes with fingers still down.
///
/// Fingers: the most fingers down at once during the stroke. Fingers may land and lift in any
/// order (real 4-finger drags land over ~100 ms); the displacement is accumulated over the
/// fingers present in consecutive frames, so a late finger does not bend the stroke.
public final class SwipeRecognizer: GestureRecognizer {
    public static let spec = RecognizerSpec(
        name: "swipe", kind: .swipe,
        summary: "A quick straight stroke of 1–10 fingers, recognized at lift: direction, fingers, distance, speed.",
        parameters: [
            Parameter("min_fingers", default: 1, range: 1...10, integer: true, summary: "Fewest fingers."),
            Parameter("max_fingers", default: 10, range: 1...10, integer: true, summary: "Most fingers."),
            Parameter("directions", default: 4, range: 4...8, integer: true,
                      summary: "4 (up, down, left, right) or 8 (with diagonals)."),
            Parameter("min_distance_mm", default: 20, range: 1...1000, unit: "mm", summary: "Shortest swipe."),
            Parameter("min_distance_fraction", default: 0, range: 0...1,
                      summary: "Shortest swipe as a fraction of the screen's width or height (0 = off)."),
            Parameter("max_duration", default: 2.5, range: 0.05...10, unit: "s",
                      summary: "Longest swipe, first touch to last lift."),
            Parameter("min_straightness", default: 0.75, range: 0...1,
                      summary: "Displacement over path length; below it the stroke is not a swipe."),
        ],
        make: { SwipeRecognizer(setup: $0) })

    public let name = "swipe"
    public let kind = GestureKind.swipe
    public private(set) var state = RecognizerState.possible
    public var deadline: Double? {
        state == .possible && group.downCount > 0 ? group.firstTime + maxDuration : nil
    }

    let minFingers: Int
    let maxFingers: Int
    let sectors: Int
    let minDistanceMM: Double
    let minDistanceFraction: Double
    let maxDuration: Double
    let minStraightness: Double
    private var group = ContactGroup()

    public init(setup: RecognizerSetup) {
        let p = setup.parameters
        minFingers = Int(p["min_fingers"])
        maxFingers = Int(p["max_fingers"])
        sectors = p["directions"] >= 6 ? 8 : 4
        minDistanceMM = p["min_distance_mm"]
        minDistanceFraction = p["min_distance_fraction"]
        maxDuration = p["max_duration"]
        minStraightness = p["min_straightness"]
    }

    public convenience init(_ overrides: [String: Double] = [:]) {
        self.init(setup: RecognizerSetup(parameters: ParameterValues(Self.spec.parameters, overrides: overrides)))
    }

    public func handle(_ frame: TouchFrame, events: inout [GestureEvent]) {
        guard state == .possible else { return }
        group.update(frame)
        let d = group.translationMM
        if group.duration > maxDuration || group.maxDownCount > maxFingers {
            state = .failed
            return
        }
        if group.pathLengthMM >= minDistanceMM, d.length < minStraightness * group.pathLengthMM {
            state = .failed  // bent: a circle, a scrub, a pan that turned
            return
        }
        guard group.downCount == 0 else { return }
        let direction = Compass.direction(of: d, sectors: sectors)
        let extent: Double
        switch direction {
        case .left, .right: extent = frame.surface.widthMM
        case .up, .down: extent = frame.surface.heightMM
        default: extent = (frame.surface.widthMM + frame.surface.heightMM) / 2
        }
        let needed = max(minDistanceMM, minDistanceFraction * extent)
        guard d.length >= needed, group.maxDownCount >= minFingers else {
            state = .failed
            return
        }
        state = .recognized
        var e = GestureEvent(kind: .swipe, phase: .recognized, time: frame.time, fingers: group.maxDownCount,
                             center: group.startCentroidPosition, centerMM: group.startCentroidMM)
        let duration = max(group.duration, 1e-3)
        e.direction = direction
        e.distanceMM = d.length
        e.speedMM = d.length / duration
        e.velocityMM = d / duration
        e.duration = group.duration
        events.append(e)
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
    }
}
