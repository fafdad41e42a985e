import CLibevdev
import CMallocCounter
import Evdev
import GestureKit
import Glibc

/// The cost of passthrough per frame: from a frame's read to the end of the clone's write, the
/// daemon's own stage (Passthrough, with a TouchGate as the modes are) fed as the daemon feeds a
/// live device (DeviceReader: a read's kernel events, `EventBatch`), so tracker, arena, relay,
/// the clone's encoding and its one write(2), against the same pipeline without passthrough. The
/// frames go to /dev/null instead of /dev/uinput (this benchmark must run where there is no
/// uinput: containers, CI), so the kernel's delivery of the frame to the clone's readers is not
/// in the figure; the write(2) itself is.
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
            let gate = TouchGate()
            pipeline.gate = Borrowed(gate)
            if passthrough { pipeline.stage = p }
            var offset = 0.0
            var samples: [Double] = []
            samples.reserveCapacity((runs + 2) * events.count)
            var frames = 0
            // One frame's events as a read leaves them (kernel times), reused.
            var read: [input_event] = []
            read.reserveCapacity(256)
            func pass(record: Bool) {
                for var e in events {
                    e.time += offset
                    read.append(input_event(e))
                    guard e.type == EV.SYN && e.code == SYN.REPORT else { continue }
                    let start = Stopwatch.now()
                    read.withUnsafeBufferPointer { pipeline.feed(EventBatch(base: $0.baseAddress!, count: $0.count)) { _ in } }
                    if record { samples.append(Double(Stopwatch.now() - start)) }
                    read.removeAll(keepingCapacity: true)
                    frames += 1
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
            // The gate is lent unretained: kept alive until the last pass is done.
            withExtendedLifetime(gate) {}
            return (Distribution(samples), Double(allocations) / Double(events.count), frames / (runs + 3))
        }

        let (plain, _, _) = measure(passthrough: false)
        let (forwarded, allocations, frames) = measure(passthrough: true)
        return Result(recording: replay.path, frames: frames, nsPerFrame: forwarded, pipelineNsPerFrame: plain,
                      allocationsPerEvent: allocations)
    }
}
