/// Memory allocated once and freed with the last reference to its owner: for a value type that
/// writes through a raw pointer on its hot path (no bounds or uniqueness check per write) and
/// must not free that memory itself. A noncopyable struct freeing it in its own `deinit` did,
/// under Debian 13's Swift 6.0.3 with -O: `ContactTracker`'s deinit ran inside
/// `DevicePipeline.feed`, in the middle of a replay, and the next frame wrote into freed slots
/// (glibc: "double free or corruption"; valgrind: invalid writes into a block freed by it).
/// Reference counting has no such corner: the memory lives while the value holding this does.
public final class OwnedBuffer<Element> {
    /// The first element; valid for `count` elements while this object lives.
    public let base: UnsafeMutablePointer<Element>
    public let count: Int

    public init(repeating element: Element, count: Int) {
        precondition(count > 0, "OwnedBuffer: at least one element")
        base = .allocate(capacity: count)
        base.initialize(repeating: element, count: count)
        self.count = count
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }
}
