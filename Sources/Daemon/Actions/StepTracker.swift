import GestureKit

/// Turns a continuous quantity into discrete steps for one binding on one device: the general
/// mechanism behind "every 10 mm of pan", "every 0.1 of scale", "every 15° of rotation".
/// The base is the value at `began`; each `changed` that moves a whole number of steps away
/// fires once, reporting the signed number of steps (GESTURE_STEPS), and moves the base on.
struct StepTracker {
    private var base: [String: Double] = [:]
    static let maxSteps = 1_000_000.0

    /// nil: no step boundary crossed (do not fire). Otherwise the signed step count.
    mutating func steps(_ e: GestureEvent, device: String, step: Double, of q: StepQuantity) -> Int? {
        guard let v = q.value(of: e) else { return nil }
        switch e.phase {
        case .began:
            base[device] = v
            return nil
        case .changed:
            let b = base[device] ?? (q == .scale ? 1 : 0)
            let whole = ((v - b) / step).rounded(.towardZero)
            guard !whole.isNaN, whole != 0 else { return nil }
            // Checked: a ratio past Int's range would trap. More than maxSteps at once is
            // reported as maxSteps, and the base jumps to the value.
            guard abs(whole) <= Self.maxSteps else {
                base[device] = v
                return whole > 0 ? Int(Self.maxSteps) : -Int(Self.maxSteps)
            }
            base[device] = b + whole * step
            return Int(whole)
        case .ended, .cancelled, .recognized:
            base[device] = nil
            return nil
        }
    }
}
