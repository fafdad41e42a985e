import ArgumentParser
import CMallocCounter
import Evdev
import GestureKit
import Glibc

/// `gestured-bench output`: how long a `keys` / `click` binding takes, from the input event that
/// completes the gesture to the key frames written. On a machine with a writable /dev/uinput
/// the frames go to a real virtual keyboard and pointer; elsewhere to a pipe (the same write(2)
/// of the same bytes, minus the kernel's uinput handling), drained between samples.
struct OutputCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "output",
        abstract: "Measures gesture → keys written and the cost of a click, as the keys/click bindings do them.")

    @Option(help: "Passes over the circle recording (one gesture → keys sample per pass).")
    var runs = 300

    @Option(help: "Chords typed and clicks made alone, each timed.")
    var clicks = 10_000

    @Argument(help: "A recording with one circle (evemu).")
    var recording = BenchRecording.circle

    func run() throws {
        let uinput = access("/dev/uinput", W_OK) == 0
        let keyboard: FrameSink, pointer: FrameSink, drain: () -> Void
        var pipeFDs: [Int32] = [-1, -1]
        if uinput {
            keyboard = try UInputDevice(VirtualKeyboard.spec)
            pointer = try UInputDevice(VirtualPointer.spec)
            drain = {}
        } else {
            guard pipe(&pipeFDs) == 0 else { throw BenchError("cannot make a pipe") }
            _ = fcntl(pipeFDs[0], F_SETFL, O_NONBLOCK)  // drained without blocking; writes never fill it
            keyboard = FileFrameSink(fd: pipeFDs[1])
            pointer = keyboard
            drain = {
                var buf = [UInt8](repeating: 0, count: 65536)
                while buf.withUnsafeMutableBytes({ read(pipeFDs[0], $0.baseAddress, $0.count) }) > 0 {}
            }
        }
        defer { if !uinput { close(pipeFDs[0]); close(pipeFDs[1]) } }
        let sink = uinput ? "uinput (/dev/uinput: real virtual devices)" : "a pipe (no writable /dev/uinput here)"
        let chords = [try KeyChord(parsing: "ctrl+r")]

        let samples = try gestureToKeys(chords, on: keyboard, drain: drain)

        // Allocations of typing itself, steady state (after the passes above).
        gestured_count_allocations(1)
        let before = gestured_allocation_count()
        for _ in 0..<100 { try KeyChord.type(chords, on: keyboard) }
        let allocations = gestured_allocation_count() - before
        gestured_count_allocations(0)
        drain()

        let typeSamples = try timed(drain: drain) { _ in try KeyChord.type(chords, on: keyboard) }
        let clickSamples = try timed(drain: drain) { i in
            try VirtualPointer.click(.right, at: Point(x: Double(i % 100) / 100, y: 0.5), on: pointer)
        }

        let gesture = Distribution(samples), typing = Distribution(typeSamples), click = Distribution(clickSamples)
        print("output actions, frames written to \(sink)")
        print("gesture → keys \"ctrl+r\" written (4 frames, 4 writes): \(micros(gesture.median)) median, \(micros(gesture.p99)) p99 over \(samples.count) circles")
        print("ctrl+r typed alone (4 frames, 4 writes):               \(micros(typing.median)) median, \(micros(typing.p99)) p99 over \(clicks) chords")
        print("click at a point (3 frames, 3 writes):                 \(micros(click.median)) median, \(micros(click.p99)) p99 over \(clicks) clicks")
        print("allocations per ctrl+r typed (steady state):           \(Double(allocations) / 100)")
    }

    /// Gesture → keys: the circle recording through the full pipeline; a sample runs from the
    /// start of feeding the event that completes the circle to the end of the key writes.
    private func gestureToKeys(_ chords: [KeyChord], on keyboard: FrameSink, drain: () -> Void) throws -> [Double] {
        let replay = try BenchRecording(path: recording)
        let events = replay.events, span = replay.span
        let pipeline = replay.pipeline()
        var offset = 0.0
        var samples: [Double] = []
        samples.reserveCapacity(runs)
        var failure: DeviceError?
        var typedAt: UInt64 = 0
        for pass in 0..<(runs + 2) {
            for var e in events {
                e.time += offset
                let t0 = Stopwatch.now()
                typedAt = 0
                pipeline.feed(e) { g in
                    guard g.kind == .circle, g.phase == .recognized else { return }
                    do throws(DeviceError) { try KeyChord.type(chords, on: keyboard) } catch { failure = error }
                    typedAt = Stopwatch.now()
                }
                if typedAt != 0 && pass >= 2 { samples.append(Double(typedAt - t0)) }  // two warm-up passes
            }
            offset += span
            drain()
        }
        if let failure { throw BenchError("writing keys: \(failure)") }
        guard !samples.isEmpty else { throw BenchError("\(recording): no circle recognized") }
        return samples
    }

    /// `clicks` timings of `action` (given its index), the sink drained every 256 and after.
    private func timed(drain: () -> Void, _ action: (Int) throws -> Void) throws -> [Double] {
        var samples: [Double] = []
        samples.reserveCapacity(clicks)
        for i in 0..<clicks {
            let t0 = Stopwatch.now()
            try action(i)
            samples.append(Double(Stopwatch.now() - t0))
            if i % 256 == 255 { drain() }
        }
        drain()
        return samples
    }

    /// Nanoseconds as microseconds with two decimals.
    private func micros(_ ns: Double) -> String { DecimalText.string(ns / 1000, places: 2, padded: true) + " µs" }
}
