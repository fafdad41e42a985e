import Daemon
import GestureKit

/// `gestured listen` on a terminal: one line per gesture, decided. A continuous gesture's line is
/// rewritten in place while it runs and finished with its final values; a provisional pan that
/// the stroke turned into something else (`pan cancelled`, then a circle at the same moment) is
/// replaced by what it became. Each line carries the figures that decided the gesture.
struct LiveView {
    /// What to write: the open line's new text (kept open), or a finished line.
    enum Output: Equatable {
        case rewrite(String)
        case finish(String)
    }

    /// A cancelled gesture's line stays open this long (seconds of event time) for what the
    /// stroke became: the arena reports the yield and the winner at the same frame.
    static let replaceWithin = 0.05

    /// The device whose line is open, its gestures in progress (in order of beginning), and a
    /// cancelled one waiting to be replaced.
    private var device: String?
    private var running: [(gesture: String, text: String)] = []
    private var cancelled: (text: String, time: Double)?

    mutating func take(_ line: String) -> [Output] {
        guard let value = try? JSONReader.parse(line), let obj = value.object, let gesture = obj["gesture"]?.string else {
            return close() + [.finish(EventLine.readable(line))]
        }
        let device = obj["device"]?.string ?? "?"
        let phase = obj["phase"]?.string ?? ""
        let time = obj["time"]?.number ?? 0
        var out: [Output] = []
        if device != self.device { out += close() }
        if let c = cancelled {
            // What the stroke became takes the cancelled line's place; anything else leaves it.
            let became = running.isEmpty && phase == "recognized" && time - c.time <= Self.replaceWithin
            if !became { out.append(.finish(c.text)) }
            cancelled = nil
        }
        self.device = device
        let text = Self.describe(gesture: gesture, phase: phase, obj, device: device)
        switch phase {
        case "began", "changed":
            if let i = running.firstIndex(where: { $0.gesture == gesture }) { running[i].text = text } else { running.append((gesture, text)) }
            out.append(.rewrite(running.map(\.text).joined(separator: "  |  ")))
        case "ended", "cancelled":
            running.removeAll { $0.gesture == gesture }
            if phase == "cancelled" && running.isEmpty {
                cancelled = (text, time)
                out.append(.rewrite(text))
            } else if running.isEmpty {
                out.append(.finish(text))
                self.device = nil
            } else {
                out.append(.finish(text))
                out.append(.rewrite(running.map(\.text).joined(separator: "  |  ")))
            }
        default:
            cancelled = nil
            out.append(.finish(text))
            if !running.isEmpty { out.append(.rewrite(running.map(\.text).joined(separator: "  |  "))) } else { self.device = nil }
        }
        return out
    }

    /// Finishes the open line as it stands (another device, a reply, the end).
    mutating func close() -> [Output] {
        var out: [Output] = []
        if let c = cancelled { out.append(.finish(c.text)) }
        if !running.isEmpty { out.append(.finish(running.map(\.text).joined(separator: "  |  "))) }
        cancelled = nil
        running = []
        device = nil
        return out
    }

    /// `+12.345s  circle  recognized  clockwise 1.05 turns, radius 31.4 mm, fit 0.021  Wacom ISDv4 E6 Finger`
    static func describe(gesture: String, phase: String, _ obj: [String: JSONValue], device: String) -> String {
        let time = obj["time"]?.number.map { "+" + EventLine.fixed($0, places: 3) + "s" } ?? ""
        let fingers = obj["fingers"]?.int.map { $0 == 1 ? "" : "\($0) fingers" } ?? ""
        let head = [time, EventLine.pad(gesture, to: 10), EventLine.pad(phase, to: 10)].joined(separator: "  ")
        let tail = [figures(gesture, obj), fingers, obj["region"]?.string.map { "in \($0)" } ?? "", device].filter { !$0.isEmpty }
        return head + "  " + tail.joined(separator: "  ")
    }

    /// The numbers that decided a gesture, in words.
    static func figures(_ gesture: String, _ o: [String: JSONValue]) -> String {
        func n(_ key: String, _ places: Int) -> String? { o[key]?.number.map { EventLine.fixed($0, places: places) } }
        func s(_ key: String) -> String? { o[key]?.string }
        func vector(_ key: String) -> String? {
            guard let v = o[key], let x = v["x"]?.number, let y = v["y"]?.number else { return nil }
            return "(\(EventLine.fixed(x, places: 1)), \(EventLine.fixed(y, places: 1)))"
        }
        let parts: [String?]
        switch gesture {
        case "circle":
            parts = [s("direction"), n("turns", 2).map { "\($0) turns" }, n("radius_mm", 1).map { "radius \($0) mm" }, n("fit_error", 3).map { "fit error \($0)" }]
        case "swipe", "edge_swipe":
            parts = [s("edge").map { "from the \($0) edge" }, s("direction"), n("distance_mm", 1).map { "\($0) mm" },
                     n("speed_mm", 0).map { "at \($0) mm/s" }, n("duration", 3).map { "in \($0) s" }]
        case "shape":
            parts = [s("shape"), n("score", 3).map { "score \($0)" },
                     s("runner_up").map { r in "runner-up \(r)" + (n("runner_up_score", 3).map { " \($0)" } ?? "") }]
        case "tap":
            parts = [o["count"]?.int.map { $0 == 1 ? "single" : "×\($0)" }]
        case "pan":
            parts = [vector("translation_mm").map { "moved \($0) mm" }, vector("velocity_mm").map { "at \($0) mm/s" }]
        case "pinch":
            parts = [n("scale", 2).map { "scale \($0)" }]
        case "rotate":
            parts = [n("rotation", 2).map { "rotation \($0) rad" }]
        case "long_press":
            parts = [n("duration", 2).map { "held \($0) s" }]
        case "tickle":
            parts = [o["reversals"]?.int.map { "\($0) reversals" }]
        default:
            parts = []
        }
        return parts.compactMap { $0 }.joined(separator: ", ")
    }
}
