/// The events of the gestures in `events` that completed — discrete ones recognized, continuous
/// ones ended — in order; a continuous gesture that ended `cancelled` (a provisional pan that gave
/// way to a swipe, a hold that started to move, a palm) is left out whole. This is what a binding
/// acting on `recognized` and `ended` sees of a stream.
public func completedGestures(_ events: [GestureEvent]) -> [GestureEvent] {
    var out: [GestureEvent] = []
    /// Per continuous kind, the index in `out` where its gesture in progress began.
    var beganAt: [GestureKind: Int] = [:]
    for e in events {
        switch e.phase {
        case .began:
            beganAt[e.kind] = out.count
            out.append(e)
        case .cancelled:
            if let k = beganAt.removeValue(forKey: e.kind) {
                out = Array(out[..<k]) + out[k...].filter { $0.kind != e.kind }
            }
        case .ended:
            beganAt[e.kind] = nil
            out.append(e)
        case .recognized, .changed:
            out.append(e)
        }
    }
    return out
}
