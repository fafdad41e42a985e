import GestureKit
import Glibc
import Testing

/// `Locked` against the plain version (one thread counting alone): four threads taking the lock
/// in turn lose no increment. Under ThreadSanitizer (scripts/test.sh) the same test fails if the
/// lock were one TSan cannot see, as the standard library's `Mutex` is on Linux: it reports the
/// counter's every change as a race.
@Suite struct LockedTests {
    @Test func fourThreadsCountingTogetherCountAsOneAlone() {
        let perThread = 20_000
        var alone = 0
        for _ in 0..<(4 * perThread) { alone += 1 }
        let counter = Locked(0)
        final class Job: @unchecked Sendable {
            let counter: Locked<Int>
            let times: Int
            init(_ counter: Locked<Int>, _ times: Int) { self.counter = counter; self.times = times }
        }
        var threads: [pthread_t] = []
        for _ in 0..<4 {
            var t = pthread_t()
            let job = Unmanaged.passRetained(Job(counter, perThread)).toOpaque()
            #expect(pthread_create(&t, nil, { raw in
                let job = Unmanaged<Job>.fromOpaque(raw!).takeRetainedValue()
                for _ in 0..<job.times { job.counter.withLock { $0 += 1 } }
                return nil
            }, job) == 0)
            threads.append(t)
        }
        for t in threads { pthread_join(t, nil) }
        #expect(counter.withLock { $0 } == alone)
    }
}
