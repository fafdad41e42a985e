/// Cuts touch input into one-finger strokes for teaching a shape (`gestured learn`), with the
/// reason when a touch is no usable example. The same finger rules as the shape recognizers.
public final class StrokeCollector {
    public enum Verdict: Sendable {
        case stroke(Stroke)
        /// The stroke's box, longer side, was below the minimum (mm).
        case tooSmall(Double)
        case secondFinger
        /// Cancelled by the system: palm, resynchronization, unplug.
        case cancelled

        public var reason: String {
            switch self {
            case .stroke: "ok"
            case .tooSmall(let mm): "too small (\(Int(mm.rounded())) mm; a shape needs its longer side ≥ the minimum)"
            case .secondFinger: "two fingers: draw with one"
            case .cancelled: "cancelled (palm or lost contact)"
            }
        }
    }

    public let minSizeMM: Double
    private var finger = SingleFinger()
    private var stroke = Stroke()
    private var outcome: Verdict?
    private var inSequence = false

    public init(minSizeMM: Double = 10) { self.minSizeMM = minSizeMM }

    /// Feeds one frame; returns a verdict when the touch sequence ends (no finger down).
    public func handle(_ frame: TouchFrame) -> Verdict? {
        if !frame.contacts.isEmpty { inSequence = true }
        if outcome == nil {
            switch finger.step(frame) {
            case .idle: break
            case .began(let k), .moved(let k): stroke.append(mm: frame.contacts[k].mm, position: frame.contacts[k].position)
            case .secondFinger: outcome = .secondFinger
            case .cancelled: outcome = .cancelled
            case .lifted(let k):
                stroke.append(mm: frame.contacts[k].mm, position: frame.contacts[k].position)
                let box = stroke.boxMM
                let size = box.isEmpty ? 0 : max(box.width, box.height)
                outcome = size >= minSizeMM ? .stroke(stroke) : .tooSmall(size)
            }
        }
        guard inSequence, frame.downCount == 0 else { return nil }
        let verdict = outcome ?? .cancelled
        outcome = nil
        inSequence = false
        finger.reset()
        stroke.removeAll()
        return verdict
    }
}
