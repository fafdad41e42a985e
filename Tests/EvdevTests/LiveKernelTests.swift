import Evdev
import GestureKit
import Glibc
import Testing

/// Real kernel devices: a recording becomes a uinput device (evemu-device) and is played into
/// it (evemu-play); gestured reads it through libevdev like the daemon does. Needs /dev/uinput
/// and root, so it runs in the VM; elsewhere Swift Testing reports it as skipped, with this
/// reason. In the guest (virtme-ng, Tests/vm/run.sh, docs/testing.md):
///     modprobe uinput
///     .build/debug/gesturedPackageTests.xctest --testing-library swift-testing --filter LiveKernelTests
@Suite("live kernel devices", .serialized, .enabled(if: LiveKernel.available, "needs /dev/uinput, root and evemu-tools (run in the VM)"))
struct LiveKernelTests {
    @Test("a played recording gives the same frames live as replayed from the file")
    func sameFramesLive() throws {
        let path = Fixture.recording("touchscreens/Atmel_maXTouch_Touchscreen.4-finger-drag-down.events")
        let recording = try Recording.load(path: path)
        let uinput = try EvemuDevice(recording: path)
        defer { uinput.destroy() }
        let device = try EvdevDevice(devnode: uinput.devnode)
        #expect(device.info.name == recording.info.name)
        #expect(device.info.kind == .touchscreen && device.info.slotCount == 10)
        var tracker = ContactTracker(info: device.info, initialSlots: device.slotSnapshot())
        var live: [SeenFrame] = []
        var outcomes: [ReadOutcome] = []
        let player = try LiveKernel.spawn(["evemu-play", uinput.devnode], stdin: path)
        LiveKernel.pump(device, until: { LiveKernel.exited(player) }) { outcome in
            outcomes.append(outcome)
        } deliver: { e in tracker.feed(e) { live.append(copy($0)) } }
        let expected = frames(of: recording)
        #expect(!outcomes.contains { if case .dropped = $0 { true } else { false } })
        #expect(live.count == expected.count)
        #expect(live.map { $0.contacts.map(\.phase) } == expected.map { $0.contacts.map(\.phase) })
        #expect(live.map { $0.contacts.map(\.id) } == expected.map { $0.contacts.map(\.id) })
        #expect(live.map { $0.contacts.map(\.mm) } == expected.map { $0.contacts.map(\.mm) })
        // Kernel time on CLOCK_MONOTONIC: close to now, not the wall clock.
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let mono = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
        #expect(live.last.map { abs($0.time - mono) < 60 } == true)
    }

    @Test("SYN_DROPPED: a reader that falls behind resyncs; contacts stay paired and none is left down")
    func droppedEvents() throws {
        let path = Fixture.recording("tablets/Wacom_DTH2242_Finger.events")
        let uinput = try EvemuDevice(recording: path)
        defer { uinput.destroy() }
        let device = try EvdevDevice(devnode: uinput.devnode)
        let pipeline = DevicePipeline(info: device.info, arena: RecognizerCatalog.defaultArena())
        // Play everything (16,593 events) before reading anything: the evdev buffer overflows.
        let player = try LiveKernel.spawn(["evemu-play", uinput.devnode], stdin: path)
        while !LiveKernel.exited(player) { usleep(50_000) }
        var seen: [SeenFrame] = []
        var drops = 0
        LiveKernel.pump(device, until: { true }) { outcome in
            if case .dropped(let time) = outcome {
                drops += 1
                pipeline.dropped(time: time, slots: device.slotSnapshot(), onFrame: { seen.append(copy($0)) }, onGesture: { _ in })
            }
        } deliver: { e in pipeline.feed(e, onFrame: { seen.append(copy($0)) }, onGesture: { _ in }) }
        #expect(drops >= 1)
        let ledger = ContactLedger(seen)
        #expect(ledger.paired)
        #expect(pipeline.tracker.downCount == 0)
    }

    @Test("unplug mid-touch: read reports it and the pipeline cancels the contacts down")
    func unplugMidTouch() throws {
        // The Atmel recording cut after its 8th SYN_REPORT: four fingers down, none lifted.
        let full = try Recording.load(path: Fixture.recording("touchscreens/Atmel_maXTouch_Touchscreen.4-finger-drag-down.events"))
        let text = LiveKernel.read(Fixture.recording("touchscreens/Atmel_maXTouch_Touchscreen.4-finger-drag-down.events"))
        var kept: [Substring] = []
        var reports = 0
        for line in text.split(separator: "\n") {
            if reports == 8 && line.hasPrefix("E:") { break }
            kept.append(line)
            if line.hasPrefix("E:") && line.contains(" 0000 0000 ") { reports += 1 }
        }
        let cut = temporaryFile("Atmel_cut.events", kept.joined(separator: "\n") + "\n")
        var offline = ContactTracker(info: full.info)
        for e in try Recording.load(path: cut).events { offline.feed(e) { _ in } }
        #expect(offline.downCount == 4)
        let uinput = try EvemuDevice(recording: cut)
        let device = try EvdevDevice(devnode: uinput.devnode)
        let pipeline = DevicePipeline(info: device.info, arena: RecognizerCatalog.defaultArena())
        let player = try LiveKernel.spawn(["evemu-play", uinput.devnode], stdin: cut)
        LiveKernel.pump(device, until: { LiveKernel.exited(player) }) { _ in } deliver: { pipeline.feed($0, onGesture: { _ in }) }
        #expect(pipeline.tracker.downCount == 4)
        uinput.destroy()
        var outcome = ReadOutcome.wouldBlock
        for _ in 0..<50 {
            outcome = device.read { _ in }
            if outcome == .unplugged { break }
            usleep(20_000)
        }
        #expect(outcome == .unplugged)
        var cancelled: [SeenFrame] = []
        pipeline.deviceLost(time: 0, onFrame: { cancelled.append(copy($0)) }, onGesture: { _ in })
        #expect(cancelled.count == 1 && cancelled[0].contacts.count == 4)
        #expect(cancelled[0].contacts.allSatisfy { $0.phase == .cancelled })
    }
}

/// A uinput device made by evemu-device (a separate process) from a recording's description.
final class EvemuDevice {
    let devnode: String
    private let pid: pid_t
    private var alive = true

    init(recording: String) throws {
        let (pid, out) = try LiveKernel.spawnReading(["evemu-device", recording])
        self.pid = pid
        // evemu-device prints "NAME: /dev/input/eventN" once the node exists.
        var text = ""
        var node: String?
        for _ in 0..<100 where node == nil {
            var buf = [UInt8](repeating: 0, count: 512)
            let n = buf.withUnsafeMutableBytes { read(out, $0.baseAddress, $0.count) }
            if n > 0 { text += String(decoding: buf[0..<n], as: UTF8.self) } else { usleep(20_000) }
            if let r = text.firstRange(of: "/dev/input/event") {
                let tail = text[r.lowerBound...].prefix { !$0.isWhitespace }
                if text[r.lowerBound...].contains("\n") { node = String(tail) }
            }
        }
        close(out)
        guard let node else {
            kill(pid, SIGTERM)
            throw LiveKernel.Failure(message: "evemu-device printed no node: \(text)")
        }
        devnode = node
        usleep(200_000)  // let udev finish with the new node
    }

    func destroy() {
        guard alive else { return }
        alive = false
        kill(pid, SIGTERM)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }

    deinit { destroy() }
}

enum LiveKernel {
    struct Failure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    static var available: Bool {
        access("/dev/uinput", R_OK | W_OK) == 0 && geteuid() == 0
            && access("/usr/bin/evemu-device", X_OK) == 0 && access("/usr/bin/evemu-play", X_OK) == 0
    }

    static func read(_ path: String) -> String {
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buf.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            bytes += buf[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func spawn(_ argv: [String], stdin path: String) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, path, O_RDONLY, 0)
        return try run(argv, &actions)
    }

    static func spawnReading(_ argv: [String]) throws -> (pid_t, Int32) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw Failure(message: "pipe failed") }
        _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_addclose(&actions, fds[0])
        let pid = try run(argv, &actions)
        close(fds[1])
        return (pid, fds[0])
    }

    private static func run(_ argv: [String], _ actions: inout posix_spawn_file_actions_t) throws -> pid_t {
        var pid: pid_t = 0
        var cargs = argv.map { strdup($0) } + [nil]
        defer { for a in cargs { free(a) } }
        // Test threads block signals; a child inherits that mask and would ignore SIGTERM.
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attr, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGTERM)
        posix_spawnattr_setsigdefault(&attr, &defaults)
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let rc = posix_spawnp(&pid, argv[0], &actions, &attr, &cargs, environ)
        guard rc == 0 else { throw Failure(message: "cannot run \(argv[0]): \(rc)") }
        return pid
    }

    /// True once the child has exited (reaped once; later calls keep answering true).
    static func exited(_ pid: pid_t) -> Bool {
        var status: Int32 = 0
        let r = waitpid(pid, &status, WNOHANG)
        return r == pid || (r < 0 && errno == ECHILD)
    }

    /// Reads until `done()` holds and the device has been quiet for 300 ms.
    static func pump(_ device: EvdevDevice, until done: () -> Bool, outcome: (ReadOutcome) -> Void,
                     deliver: (InputEvent) -> Void) {
        var quiet = 0
        while quiet < 3 {
            var p = pollfd(fd: device.fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&p, 1, 100)
            if ready > 0 {
                quiet = 0
                while true {
                    let o = device.read(into: deliver)
                    outcome(o)
                    if o != .more { break }
                }
            } else if done() {
                quiet += 1
            }
        }
    }
}
