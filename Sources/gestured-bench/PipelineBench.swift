import CMallocCounter
import Evdev
import GestureKit

/// Replays one recording through the full pipeline (tracker, every default recognizer, arena,
/// JSON encoding of the gestures) many times and measures the cost per input event.
struct PipelineBench {
    struct Result {
        var recording: String
        var events: Int
        var gestures: Int
        /// Nanoseconds per input event, one sample per pass.
        var nsPerEvent: Distribution
        /// The same without encoding gestures as JSON: tracker, recognizers and arena only.
        var inputNsPerEvent: Distribution
        /// Heap allocations per input event over the measured passes (steady state).
        var allocationsPerEvent: Double
        /// Allocations per pass with the gesture encoding left out: the input path alone.
        var inputPathAllocations: Int
        /// JSON bytes the gestures of one pass encode to (also keeps the encoding from being optimized away).
        var encodedBytesPerPass: Int
    }

    /// `runs` timed passes after two warm-up passes.
    static func measure(_ replay: BenchRecording, runs: Int) -> Result {
        let events = replay.events, span = replay.span
        let pipeline = replay.pipeline()
        let label = pipeline.label
        var gestures = 0
        var encodedBytes = 0
        var offset = 0.0
        // One pass's events, their clock moved on in place (no allocation in a pass), fed at
        // once as the daemon feeds a read.
        var shifted = events

        func pass(encode: Bool) {
            for i in shifted.indices { shifted[i].time = events[i].time + offset }
            pipeline.feed(shifted[...]) { g in
                gestures += 1
                if encode { encodedBytes &+= g.json(device: label).utf8.count }
            }
            offset += span
        }

        // Warm up: buffers reach their steady-state capacity.
        pass(encode: true)
        pass(encode: true)
        gestures = 0

        var samples: [Double] = []
        var inputSamples: [Double] = []
        samples.reserveCapacity(runs)
        inputSamples.reserveCapacity(runs)
        for _ in 0..<runs {
            var t0 = Stopwatch.now()
            pass(encode: true)
            var t1 = Stopwatch.now()
            samples.append(Double(t1 - t0) / Double(events.count))
            t0 = Stopwatch.now()
            pass(encode: false)
            t1 = Stopwatch.now()
            inputSamples.append(Double(t1 - t0) / Double(events.count))
        }
        let gesturesPerPass = gestures / max(2 * runs, 1)

        let before = gestured_allocation_count()
        gestured_count_allocations(1)
        for _ in 0..<runs { pass(encode: true) }
        gestured_count_allocations(0)
        let withEncoding = gestured_allocation_count() - before

        let before2 = gestured_allocation_count()
        gestured_count_allocations(1)
        pass(encode: false)
        gestured_count_allocations(0)
        let inputOnly = gestured_allocation_count() - before2

        return Result(
            recording: replay.path, events: events.count, gestures: gesturesPerPass,
            nsPerEvent: Distribution(samples), inputNsPerEvent: Distribution(inputSamples),
            allocationsPerEvent: Double(withEncoding) / Double(runs * events.count),
            inputPathAllocations: Int(inputOnly), encodedBytesPerPass: encodedBytes / (2 * runs + 2))
    }
}
