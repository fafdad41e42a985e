import Evdev
import Glibc
import Synchronization
import Testing

/// The I/O layer (Evdev/System/FileIO.swift) against real signals: a signal handler installed
/// without SA_RESTART makes a blocked read(2) or poll(2) fail with EINTR, and the layer must
/// carry on instead. The signal is sent to the test's own thread only (pthread_kill), so the
/// tests running beside it never see it.
@Suite(.serialized) struct FileIOTests {
    @Test func aReadInterruptedByASignalIsRetried() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let before = interruptions.load(ordering: .relaxed)
        let killer = InterruptingThread(target: pthread_self(), thenWrite: "late", to: ends[1])
        // Blocks until the killer writes, 100 ms after its signal interrupted the read.
        let bytes = try FileIO.readToEnd(ends[0], maxBytes: 100)
        killer.join()
        #expect(interruptions.load(ordering: .relaxed) > before, "the signal did not arrive: nothing was tested")
        #expect(String(decoding: bytes, as: UTF8.self) == "late")
    }

    @Test func aPollInterruptedByASignalIsRetried() {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let before = interruptions.load(ordering: .relaxed)
        let killer = InterruptingThread(target: pthread_self(), thenWrite: "x", to: ends[1])
        var pfd = pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)
        let n = retryingInterrupts { poll(&pfd, 1, 5000) }
        killer.join()
        #expect(interruptions.load(ordering: .relaxed) > before, "the signal did not arrive: nothing was tested")
        #expect(n == 1)
    }

    @Test func contentsStopsAfterTheLimitAndNamesTheFailingStep() throws {
        // /dev/zero never ends: the limit is what stops the read.
        #expect(try FileIO.contents(ofPath: "/dev/zero", maxBytes: 70_000).count == 70_001)
        #expect(throws: FileFailure.self) { try FileIO.contents(ofPath: "/nonexistent/x", maxBytes: 10) }
        do {
            _ = try FileIO.contents(ofPath: "/nonexistent/x", maxBytes: 10)
        } catch {
            #expect(error.description == "cannot open: No such file or directory")
        }
        do {
            _ = try FileIO.contents(ofPath: "/", maxBytes: 10)
        } catch {
            #expect(error.description == "cannot read: Is a directory")
        }
    }
}

/// A thread that interrupts `target` (the calling thread) with SIGUSR2 after 50 ms, then writes
/// `text` to `fd` and closes it 100 ms later. The test runner's threads block SIGUSR2: the
/// calling thread unblocks it until `join()`.
private final class InterruptingThread {
    private var thread = pthread_t()
    private let job: UnsafeMutablePointer<Job>
    private var savedMask = sigset_t()

    private struct Job {
        var target: pthread_t
        var fd: Int32
        var text: String
    }

    init(target: pthread_t, thenWrite text: String, to fd: Int32) {
        countInterruptions()
        var usr2 = sigset_t()
        sigemptyset(&usr2)
        sigaddset(&usr2, SIGUSR2)
        pthread_sigmask(SIG_UNBLOCK, &usr2, &savedMask)
        job = .allocate(capacity: 1)
        job.initialize(to: Job(target: target, fd: fd, text: text))
        let rc = pthread_create(&thread, nil, { raw in
            let job = raw!.assumingMemoryBound(to: Job.self).pointee
            usleep(50_000)
            pthread_kill(job.target, SIGUSR2)
            usleep(100_000)
            var text = job.text
            text.withUTF8 { _ = write(job.fd, $0.baseAddress, $0.count) }
            close(job.fd)
            return nil
        }, job)
        precondition(rc == 0, "pthread_create: \(rc)")
    }

    func join() {
        pthread_join(thread, nil)
        pthread_sigmask(SIG_SETMASK, &savedMask, nil)
        job.deinitialize(count: 1)
        job.deallocate()
    }
}

private let interruptions = Atomic<Int>(0)

/// SIGUSR2 counts into `interruptions`; no SA_RESTART, so blocked calls fail with EINTR.
private func countInterruptions() {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = { _ in interruptions.add(1, ordering: .relaxed) }
    action.sa_flags = 0
    sigemptyset(&action.sa_mask)
    precondition(sigaction(SIGUSR2, &action, nil) == 0)
}
