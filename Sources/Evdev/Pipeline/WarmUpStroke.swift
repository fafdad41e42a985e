import CLibevdev
import GestureKit

/// A made-up one-finger stroke in a device's own protocol, fed as a live device's reads are:
/// what the daemon runs through a throw-away pipeline to warm the frame path before the first
/// real touch (Daemon's HotPathWarmUp).
public enum WarmUpStroke {
    /// Frames of the stroke: 10 ms apart, as a panel reports; enough for every recognizer that
    /// decides on a one-finger stroke to see a sequence start, move and end.
    public static let frames = 30

    /// Each frame fed as a read of its own, as a live device's are (`EventBatch`), after the
    /// timeouts due by then; then the timeouts after the lift. Returns the gestures the stroke
    /// made, which reach no one (the tests count them: a stroke that made none warmed little).
    @discardableResult
    public static func play(_ events: [input_event], through pipeline: DevicePipeline) -> [GestureEvent] {
        var made: [GestureEvent] = []
        events.withUnsafeBufferPointer { all in
            var from = 0
            for i in all.indices where all[i].type == EV.SYN && all[i].code == SYN.REPORT {
                _ = pipeline.fireDeadlines(until: seconds(all[i])) { made.append($0) }
                pipeline.feed(EventBatch(base: all.baseAddress! + from, count: i + 1 - from)) { made.append($0) }
                from = i + 1
            }
            if let last = all.last { _ = pipeline.fireDeadlines(until: seconds(last) + 10) { made.append($0) } }
        }
        return made
    }

    private static func seconds(_ e: input_event) -> Double { Double(e.time.tv_sec) + Double(e.time.tv_usec) / 1e6 }

    /// One finger down at a third of the surface, along a diagonal to two thirds, and up, in the
    /// device's own protocol.
    public static func events(for info: DeviceInfo, at start: Double) -> [input_event] {
        var out: [input_event] = []
        func event(_ type: UInt16, _ code: UInt16, _ value: Int32, _ t: Double) {
            let seconds = t.rounded(.down)
            out.append(input_event(time: timeval(tv_sec: Int(seconds), tv_usec: Int((t - seconds) * 1e6)),
                                   type: type, code: code, value: value))
        }
        func along(_ a: AxisInfo, _ f: Double) -> Int32 {
            a.minimum + Int32(Double(a.maximum - a.minimum) * f)
        }
        for k in 0...frames {
            let t = start + Double(k) * 0.010
            let f = 1.0 / 3 + Double(k) / Double(frames) / 3
            let x = along(info.x, f), y = along(info.y, f)
            let lift = k == frames
            switch info.touchProtocol {
            case .multitouchB:
                if k == 0 {
                    event(EV.ABS, ABS.MT_SLOT, 0, t)
                    event(EV.ABS, ABS.MT_TRACKING_ID, 1, t)
                }
                if lift {
                    event(EV.ABS, ABS.MT_TRACKING_ID, -1, t)
                } else {
                    event(EV.ABS, ABS.MT_POSITION_X, x, t)
                    event(EV.ABS, ABS.MT_POSITION_Y, y, t)
                }
            case .multitouchA:
                if !lift {
                    event(EV.ABS, ABS.MT_POSITION_X, x, t)
                    event(EV.ABS, ABS.MT_POSITION_Y, y, t)
                }
                event(EV.SYN, SYN.MT_REPORT, 0, t)
            case .singleTouch:
                if !lift {
                    event(EV.ABS, ABS.X, x, t)
                    event(EV.ABS, ABS.Y, y, t)
                }
            }
            if k == 0 { event(EV.KEY, info.touchKey, 1, t) }
            if lift { event(EV.KEY, info.touchKey, 0, t) }
            event(EV.SYN, SYN.REPORT, 0, t)
        }
        return out
    }
}
