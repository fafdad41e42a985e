/// Tap: 1–5 fingers touching briefly without moving; single, double, … up to `max_count`.
///
/// One touch sequence is a tap when every finger landed before the first one lifted, none moved
/// more than the slop (`max_movement_mm` on touchscreens, `touchpad_max_movement_mm` on touchpads:
/// libinput uses 1.3 mm there), and the first landing to the last lift took at most
/// `max_duration_s`. Taps chain into a count when the next one lands within `double_tap_interval_s`
/// of the previous lift, with the same number of fingers, within `double_tap_distance_mm`.
///
/// When it fires:
/// - `max_count` = 1: at the lift, no delay.
/// - otherwise at the lift that reaches `max_count`, or when the interval after the last lift
///   passes with no further tap (the `deadline`), with the count reached so far.
/// - a following touch that cannot continue the chain (too far, other finger count, moves, holds)
///   first reports the chain so far, then is judged as a new tap on its own.
///
/// Between taps the recognizer stays `possible` with a deadline; the arena carries it over the
/// all-up reset, and `reset()` keeps the chain while it is pending (the double-tap memory).
///
/// Defaults (libinput: tap timeout 180 ms, 1.3 mm touchpad slop): touchscreen fingers are slower
/// and jitter more, so 0.3 s / 3 mm; the double-tap interval is Android's 300 ms.
public final class TapRecognizer: DeclaredRecognizer, GroupReader {
    public static let kind = GestureKind.tap
    public static let summary = "Short touches of 1–5 fingers without movement: count 1, 2, … up to max_count."

    public let rules: TapRules

    public private(set) var state = RecognizerState.possible

    /// Its context when it is handed frames itself (GroupReader): the touch being judged.
    public let own = ReaderContext()
    private var touchFailed = false
    /// The chain so far: taps counted, their fingers, where and when the last one ended.
    private var chainCount = 0
    private var chainFingers = 0
    private var chainCenter = Point.zero
    private var chainCenterMM = Point.zero
    private var chainEnd = 0.0

    public init(rules: TapRules, context: RecognizerContext) {
        self.rules = rules
    }

    public func deadline(in context: borrowing FrameContext) -> Double? {
        guard state == .possible else { return nil }
        if !touchFailed, let due = context.group.deadline(after: rules.maxDuration) { return due }
        if chainCount > 0 && context.group.downCount == 0 { return chainEnd + rules.interval }
        return nil
    }

    /// A frame changes it only while it is possible (GroupReader).
    public var followsFrames: Bool { state == .possible }

    /// Judges the touch on the frame (GroupReader).
    public func follow(_ frame: TouchFrame, _ context: borrowing FrameContext, events: inout [GestureEvent]) {
        if context.group.frameCount == 1 {
            // A new touch. A chain that timed out is reported first (normally tick did it).
            if chainCount > 0, frame.time > chainEnd + rules.interval { flushChain(time: chainEnd + rules.interval, events: &events) }
            touchFailed = false
        }

        let slop = frame.surface.isDirect ? rules.maxMovementMM : rules.touchpadMaxMovementMM
        if frame.hasCancellation || context.group.maxDisplacementMM > slop || context.group.landedAfterLift
            || context.group.maxDownCount > rules.maxFingers || context.group.duration > rules.maxDuration {
            return failTouch(time: frame.time, events: &events)
        }
        // A chained tap must match the chain's fingers and place; a mismatch ends the chain.
        if chainCount > 0 {
            let start = context.group.meanStart
            if context.group.maxDownCount > chainFingers
                || start.mm.distance(to: chainCenterMM) > rules.chainDistanceMM {
                flushChain(time: frame.time, events: &events)
            }
        }
        guard context.group.downCount == 0 else { return }

        // The touch is a tap.
        let fingers = context.group.maxDownCount
        guard fingers >= rules.minFingers else { return failTouch(time: frame.time, events: &events) }
        if chainCount > 0 && fingers != chainFingers { flushChain(time: frame.time, events: &events) }
        let start = context.group.meanStart
        chainCount += 1
        chainFingers = fingers
        chainCenter = start.position
        chainCenterMM = start.mm
        chainEnd = frame.time
        if chainCount >= rules.maxCount {
            recognize(time: frame.time, events: &events)
        }
    }

    /// This touch is not a tap: report the chain before it, then fail.
    private func failTouch(time: Double, events: inout [GestureEvent]) {
        touchFailed = true
        if chainCount > 0 { flushChain(time: time, events: &events) }
        state = .failed
    }

    /// Reports the chain so far as one tap event (count = taps in the chain) and clears it.
    private func flushChain(time: Double, events: inout [GestureEvent]) {
        guard chainCount > 0 else { return }
        var e = GestureEvent(kind: .tap, phase: .recognized, time: time, fingers: chainFingers,
                             center: chainCenter, centerMM: chainCenterMM)
        e.tapCount = chainCount
        events.append(e)
        chainCount = 0
    }

    private func recognize(time: Double, events: inout [GestureEvent]) {
        flushChain(time: time, events: &events)
        state = .recognized
    }

    public func tick(now: Double, in context: borrowing FrameContext, events: inout [GestureEvent]) {
        guard state == .possible else { return }
        if context.group.downCount > 0, !touchFailed, now >= context.group.firstTime + rules.maxDuration {
            // Held too long: a long press perhaps, not a tap.
            failTouch(time: context.group.firstTime + rules.maxDuration, events: &events)
        } else if context.group.downCount == 0, chainCount > 0, now >= chainEnd + rules.interval {
            recognize(time: chainEnd + rules.interval, events: &events)
        }
    }

    public func cancel(time: Double, events: inout [GestureEvent]) {
        chainCount = 0
        state.cancel()
    }

    /// Back to `possible`. A chain still waiting for its next tap is kept on purpose.
    public func reset() {
        let keepChain = state == .possible && chainCount > 0
        state = .possible
        own.clear()
        touchFailed = false
        if !keepChain { chainCount = 0 }
    }
}

/// What a tap is tuned by (the config's `[device.tap]`).
public struct TapRules: RecognizerRules {
    public var minFingers = 1
    public var maxFingers = 5
    public var maxCount = 2
    public var maxDuration = 0.3
    public var maxMovementMM = 3.0
    /// libinput's value.
    public var touchpadMaxMovementMM = 1.3
    /// Android's double-tap timeout.
    public var interval = 0.3
    public var chainDistanceMM = 15.0

    public init() {}

    public static let parameters = Parameter<Self>.fingers(\.minFingers, \.maxFingers, range: 1...5) + [
        Parameter("max_count", \.maxCount, range: 1...5,
                  "Longest chain (2 = double taps); 1 reports every tap at lift without delay."),
        Parameter("max_duration_s", \.maxDuration, range: 0.02...2, was: "max_duration",
                  "Longest touch, first finger down to last finger up."),
        Parameter("max_movement_mm", \.maxMovementMM, range: 0...30,
                  "Slop on touchscreens: a finger moving further is not tapping."),
        Parameter("touchpad_max_movement_mm", \.touchpadMaxMovementMM, range: 0...30, "Slop on touchpads."),
        Parameter("double_tap_interval_s", \.interval, range: 0.05...2, was: "double_tap_interval",
                  "Longest time from a lift to the next tap of a chain."),
        Parameter("double_tap_distance_mm", \.chainDistanceMM, range: 0...200,
                  "Furthest the next tap of a chain may land from the previous one."),
    ]
}
