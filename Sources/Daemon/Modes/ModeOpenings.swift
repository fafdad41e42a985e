import GestureKit

/// The ways a gesture at the screen opens a locked kiosk without its secret sequence: from a
/// mode where the app gets nothing (`passthrough = "none"`), bindings' `switch_mode` — followed
/// through other modes — to a mode where it gets every touch. check-config and the daemon's start
/// name each one. Idle timeouts and wakes are not ways out (ModeState never lets them open the
/// kiosk), nor are sequences and control clients (they are the ways in that are meant).
public enum ModeOpenings {
    /// One sentence per locked mode and open mode that bindings connect, with the bindings on
    /// the way.
    public static func find(_ config: DaemonConfig) -> [String] {
        let modes = config.modes
        let switches = config.bindings.compactMap { b -> (binding: Binding, to: String)? in
            if case .switchMode(let to, _) = b.action { return (b, to) }
            return nil
        }
        var found: [String] = []
        for locked in modes.modes where !locked.appGetsTouches {
            // Breadth first: the shortest chain of bindings to each mode.
            var path: [String: [(binding: Binding, to: String)]] = [locked.name: []]
            var queue = [locked.name]
            while !queue.isEmpty {
                let here = queue.removeFirst()
                for s in switches where s.binding.isActive(in: here) && path[s.to] == nil && modes.mode(named: s.to) != nil {
                    path[s.to] = path[here]! + [s]
                    queue.append(s.to)
                }
            }
            for open in modes.modes where open.appGetsTouches {
                guard let chain = path[open.name] else { continue }
                let how = chain.map { "[[bind]] #\($0.binding.index) (\($0.binding.gesture.rawValue) → \($0.to))" }.joined(separator: ", then ")
                found.append("mode \(locked.name) (passthrough = \"none\") opens to \(open.name) without a sequence: \(how)")
            }
        }
        return found
    }
}
