/// One finger draws a shape an operator taught (`gestured learn`): one recognizer per device
/// holds every taught shape, and at lift reports the best one whose score reaches its threshold
/// (ShapeMatcher), or fails.
public final class ShapeRecognizer: GestureRecognizer {
    public static let spec = RecognizerSpec(
        name: "shape", kind: .shape,
        summary: "one finger draws a shape taught by example ([shapes], gestured learn)",
        parameters: [
            Parameter("min_size", default: 10, range: 1...500, unit: "mm",
                      summary: "the stroke's box must be at least this long on its longer side"),
        ],
        make: { ShapeRecognizer(setup: $0) })

    public let name = "shape"
    public let kind = GestureKind.shape
    public private(set) var state = RecognizerState.possible
    public var deadline: Double? { nil }

    public let matcher: ShapeMatcher
    public let minSizeMM: Double
    public let regions: [Region]
    public private(set) var stroke = Stroke()
    public private(set) var resampled: [Point] = []
    /// The last stroke's verdict, for `gestured learn` and `trace`.
    public private(set) var match: ShapeMatcher.Match?
    private var scratch = ShapeMatcher.Scratch()
    private var finger = SingleFinger()

    public init(matcher: ShapeMatcher, minSizeMM: Double = 10, regions: [Region] = []) {
        self.matcher = matcher
        self.minSizeMM = minSizeMM
        self.regions = regions
        resampled.reserveCapacity(ShapeExample.pointCount)
    }

    public convenience init(setup: RecognizerSetup) {
        self.init(matcher: ShapeMatcher(shapes: setup.shapes), minSizeMM: setup.parameters["min_size"], regions: setup.regions)
    }

    public func handle(_ frame: TouchFrame, events: inout [GestureEvent]) {
        guard state == .possible else { return }
        // Nothing taught: fail at once, so nothing waits on this recognizer.
        guard !matcher.isEmpty else {
            state = .failed
            return
        }
        switch finger.step(frame, into: &stroke) {
        case .idle, .moved: break
        case .secondFinger: state = .failed
        case .cancelled: state = .cancelled
        case .lifted: finish(time: frame.time, events: &events)
        }
    }

    /// Whether a stroke is big enough to be a shape at all (a tap, a twitch is not).
    public static func isLargeEnough(_ stroke: Stroke, minSizeMM: Double) -> Bool {
        let box = stroke.boxMM
        return !box.isEmpty && max(box.width, box.height) >= minSizeMM
    }

    private func finish(time: Double, events: inout [GestureEvent]) {
        guard Self.isLargeEnough(stroke, minSizeMM: minSizeMM) else {
            state = .failed
            return
        }
        stroke.resample(count: ShapeExample.pointCount, into: &resampled)
        match = matcher.best(resampled, scratch: &scratch)
        guard let m = match else {
            state = .failed
            return
        }
        state = .recognized
        // The centre of a drawn shape is the middle of its box.
        let box = stroke.boxMM
        let fallback = finger.surface.normalized(box.center)
        let center = StrokeGeometry.position(of: box.center, stroke: stroke, fallback: fallback)
        var e = GestureEvent(kind: .shape, phase: .recognized, time: time, fingers: 1, center: center, centerMM: box.center,
                             region: StrokeGeometry.region(containing: center, in: regions)?.name)
        e.shape = m.shape
        e.score = m.score
        events.append(e)
    }

    public func tick(now: Double, events: inout [GestureEvent]) {}

    public func cancel(time: Double, events: inout [GestureEvent]) {
        if !state.isFinished { state = .cancelled }
    }

    public func reset() {
        state = .possible
        stroke.removeAll()
        resampled.removeAll(keepingCapacity: true)
        match = nil
        finger.reset()
    }
}
