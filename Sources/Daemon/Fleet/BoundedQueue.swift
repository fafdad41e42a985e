/// A FIFO with a fixed capacity: when full, pushing drops the oldest element and counts it.
/// What the MQTT link holds while the broker is away — bounded memory, newest kept.
struct BoundedQueue<Element> {
    let capacity: Int
    private var ring: [Element?]
    private var head = 0
    private(set) var count = 0
    /// Elements dropped because the queue was full, since it was made.
    private(set) var dropped = 0

    init(capacity: Int) {
        precondition(capacity > 0)
        self.capacity = capacity
        ring = []
    }

    mutating func push(_ e: Element) {
        if count == ring.count && ring.count < capacity {
            // Grows on demand: an idle link with a large bound holds no memory for it.
            linearize()
            ring.append(e)
            count += 1
            return
        }
        if count == capacity {
            ring[head] = e
            head = (head + 1) % capacity
            dropped += 1
            return
        }
        ring[(head + count) % ring.count] = e
        count += 1
    }

    /// Puts back an element that could not be sent, ahead of the rest; dropped when full.
    mutating func pushFront(_ e: Element) {
        guard count < capacity else { dropped += 1; return }
        if count == ring.count {
            linearize()
            ring.insert(e, at: 0)
            count += 1
            return
        }
        head = (head - 1 + ring.count) % ring.count
        ring[head] = e
        count += 1
    }

    /// Oldest first from index 0, so the ring can grow at its end.
    private mutating func linearize() {
        guard head != 0 else { return }
        ring = (0..<ring.count).map { ring[(head + $0) % ring.count] }
        head = 0
    }

    mutating func popFirst() -> Element? {
        guard count > 0 else { return nil }
        let e = ring[head]
        ring[head] = nil
        head = (head + 1) % ring.count
        count -= 1
        if count == 0 && ring.count < capacity {
            ring.removeAll(keepingCapacity: true)
            head = 0
        }
        return e
    }
}

extension BoundedQueue: Sendable where Element: Sendable {}
