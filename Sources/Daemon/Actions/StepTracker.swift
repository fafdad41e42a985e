import GestureKit

/// Turns a continuous quantity into discrete steps for one binding on one device: the general
/// mechanism behind "every 10 mm of pan", "every 0.1 of scale", "every 15° of rotation".
/// The base is the value at `began`; each `changed` that moves a whole number of steps away
/// fires once, reporting the signed number of steps (GESTURE_STEPS), and moves the base on.
struct StepTracker {
    private var base: [String: Double] = [:]

    /// nil: no step boundary crossed (do not fire). Otherwise the signed step count.
    mutating func steps(_ e: GestureEvent, device: String, step: Double, of q: StepQuantity) -> Int? {
        guard let v = q.value(of: e) else { return nil }
        switch e.phase {
        case .began:
            base[device] = v
            return nil
        case .changed:
            let b = base[device] ?? (q == .scale ? 1 : 0)
            let n = Int(((v - b) / step).rounded(.towardZero))
            guard n != 0 else { return nil }
            base[device] = b + Double(n) * step
            return n
        case .ended, .cancelled, .recognized:
            base[device] = nil
            return nil
        }
    }
}
