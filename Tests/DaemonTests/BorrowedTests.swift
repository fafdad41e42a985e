@testable import Daemon
import Glibc
import Testing

/// Borrowed, the loop's unretained reference, against the plain strong reference it stands for:
/// the same object reached, no reference added, and (debug builds) a use after the owner let the
/// object go stops the process instead of reading freed memory.
@Suite struct BorrowedTests {
    final class Counter {
        var count = 0
        func bump() -> Int {
            count += 1
            return count
        }
    }

    @Test func reachesTheSameObjectAsAStrongReference() {
        let strong = Counter()
        let borrowed = Borrowed(strong)
        #expect(borrowed.with { $0 === strong })
        #expect(borrowed.with { $0.bump() } == 1)
        #expect(strong.bump() == 2)
        #expect(borrowed.retained() === strong)
    }

    @Test func addsNoReference() {
        var owner = Counter()
        let borrowed = Borrowed(owner)
        _ = borrowed.with { $0.bump() }
        // The owner's reference is still the only strong one.
        #expect(isKnownUniquelyReferenced(&owner))
        withExtendedLifetime(borrowed) {}
    }

    @Test func aLoopHandlerReachesItsOwnerThroughIt() throws {
        let loop = try EventLoop()
        let owner = Counter()
        let me = Borrowed(owner)
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        try loop.add(fds[0]) { [unowned loop] _ in
            _ = me.with { $0.bump() }
            loop.stop()
        }
        var byte: UInt8 = 1
        #expect(write(fds[1], &byte, 1) == 1)
        loop.run {}
        #expect(owner.count == 1)
    }

    #if DEBUG && compiler(>=6.2)
    // Release builds check nothing (the invariant is the owners'): the check is debug's.
    // Exit tests are Swift Testing 6.2's: Debian 13's Swift 6.0 builds without this one.
    @Test func aUseAfterTheOwnerLetGoStopsADebugBuild() async {
        await #expect(processExitsWith: .failure) {
            var owner: Counter? = Counter()
            let borrowed = Borrowed(owner!)
            owner = nil
            _ = borrowed.with { $0.count }
        }
    }
    #endif
}
