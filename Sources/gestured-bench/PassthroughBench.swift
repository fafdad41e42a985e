import CMallocCounter
import Evdev
import GestureKit
import Glibc

/// The cost of passthrough per frame: from the read of a frame's first event to the end of the
/// clone's write (tracker, arena, relay, the clone's encoding and its one write(2)), against the
/// same pipeline without passthrough. The frames go to /dev/null instead of /dev/uinput (this
/// benchmark must run where there is no uinput: containers, CI), so the kernel's delivery of
/// the frame to the clone's readers is not in the figure; the write(2) itself is.
struct PassthroughBench {
    struct Result {
        var recording: String
        var frames: Int
        /// Nanoseconds per frame, read to clone write, every frame of the measured passes.
        var nsPerFrame: Distribution
        /// The same frames through the pipeline alone (what passthrough adds is the difference).
        var pipelineNsPerFrame: Distribution
        /// Heap allocations per input event in steady state, passthrough included.
        var allocationsPerEvent: Double
    }

    /// `runs` timed passes after two warm-up passes, with and without passthrough.
    static func measure(_ replay: BenchRecording, runs: Int) throws -> Result {
        let recording = replay.recording, events = replay.events, span = replay.span
        guard recording.info.touchProtocol == .multitouchB else { throw BenchError("\(replay.path): passthrough needs a protocol B device") }
        let fd = open("/dev/null", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { throw BenchError("cannot open /dev/null") }
        defer { close(fd) }

        func measure(passthrough: Bool) -> (Distribution, Double, Int) {
            let pipeline = replay.pipeline()
            let clone = TouchClone(sink: FileFrameSink(fd: fd), slotCount: recording.info.slotCount)
            let p = Passthrough(clone: clone, rules: TouchRelay.Rules(edgeDepthMM: 6))
            if passthrough { pipeline.stage = p }
            var offset = 0.0
            var samples: [Double] = []
            samples.reserveCapacity((runs + 2) * events.count)
            var frames = 0
            func pass(record: Bool) {
                var start: UInt64 = 0
                for var e in events {
                    e.time += offset
                    if start == 0 { start = Stopwatch.now() }
                    if passthrough { p.record(e) }
                    pipeline.feed(e) { _ in }
                    if passthrough { p.endOfEvent(e) }
                    if e.type == EV.SYN && e.code == SYN.REPORT {
                        if record { samples.append(Double(Stopwatch.now() - start)) }
                        start = 0
                        frames += 1
                    }
                }
                offset += span
            }
            pass(record: false)
            pass(record: false)
            for _ in 0..<runs { pass(record: true) }
            let before = gestured_allocation_count()
            gestured_count_allocations(1)
            pass(record: false)
            gestured_count_allocations(0)
            let allocations = gestured_allocation_count() - before
            return (Distribution(samples), Double(allocations) / Double(events.count), frames / (runs + 3))
        }

        let (plain, _, _) = measure(passthrough: false)
        let (forwarded, allocations, frames) = measure(passthrough: true)
        return Result(recording: replay.path, frames: frames, nsPerFrame: forwarded, pipelineNsPerFrame: plain,
                      allocationsPerEvent: allocations)
    }
}
