import Evdev
import GestureKit

/// Follows the secret sequences (`[[sequence]]`) through the stream of gesture events. Only
/// events that finish a gesture count (a tap recognized, a pan ended): one that is the next
/// step moves the sequence on; any other breaks it (it may start it again), as does a step
/// later than `within` seconds after the first. So a sequence of four corner taps completes only
/// when those four taps come with no other gesture between them.
public struct SequenceMatcher {
    private struct Progress {
        var next = 0
        var started = 0.0
    }

    public private(set) var sequences: [SecretSequence]
    private var progress: [Progress]
    /// The most steps each sequence has had in a row so far (how near the stream came to it).
    public private(set) var furthest: [Int]

    public init(_ sequences: [SecretSequence]) {
        self.sequences = sequences
        progress = Array(repeating: Progress(), count: sequences.count)
        furthest = Array(repeating: 0, count: sequences.count)
    }

    /// Whether `e` belongs to a gesture that may be a step of a sequence that runs in `mode`:
    /// such events are the secret, kept from listeners (socket clients, the broker). Any phase,
    /// and by the step's gesture and device only: a pan's began and changed events come before
    /// its direction or end are known, and withholding only the gestures that turn out to be
    /// steps would show a listener which they were by the gap.
    public func isStep(_ e: GestureEvent, device: DeviceLabel, mode: String) -> Bool {
        sequences.contains { q in
            q.binding.isActive(in: mode) && q.steps.contains { s in
                s.gesture == e.kind && (s.device.map { Glob.matches($0, device.name) || Glob.matches($0, device.id) } ?? true)
            }
        }
    }

    /// The sequences `e` completes in `mode` (those whose `in_mode` allows it); whether it broke
    /// an attempt and completed none; and by index, the sequences whose attempt it broke (begun,
    /// then another gesture or too late) and those it completed. `counting[i]` false: sequence
    /// i is paused, and neither moves nor breaks.
    public mutating func feed(_ e: GestureEvent, device: DeviceLabel, mode: String, counting: [Bool]? = nil)
        -> (done: [SecretSequence], broke: Bool, broken: [Int], completed: [Int]) {
        guard e.phase == .recognized || e.phase == .ended else { return ([], false, [], []) }
        var done: [SecretSequence] = []
        var broken: [Int] = []
        var completed: [Int] = []
        for i in sequences.indices {
            let q = sequences[i]
            guard q.binding.isActive(in: mode), counting?[i] ?? true else { progress[i] = Progress(); continue }
            var p = progress[i]
            if p.next > 0, e.time - p.started > q.within || !q.steps[p.next].matches(e, device: device) {
                p = Progress()
                broken.append(i)
            }
            if q.steps[p.next].matches(e, device: device) {
                if p.next == 0 { p.started = e.time }
                p.next += 1
                furthest[i] = max(furthest[i], p.next)
                if p.next == q.steps.count {
                    done.append(q)
                    completed.append(i)
                    p = Progress()
                }
            }
            progress[i] = p
        }
        return (done, !broken.isEmpty && done.isEmpty, broken, completed)
    }

    /// Forgets the attempt at sequence `i` under way (its pause begins).
    public mutating func reset(_ i: Int) { progress[i] = Progress() }

    /// Forgets every attempt under way (a pause begins).
    public mutating func reset() { progress = Array(repeating: Progress(), count: sequences.count) }
}
