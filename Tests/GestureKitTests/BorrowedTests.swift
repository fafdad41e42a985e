import GestureKit
import Testing

/// Borrowed, the one unretained reference, against the plain strong reference it stands for:
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
