extension Array where Element: BitwiseCopyable {
    /// `removeAll(keepingCapacity: true)` for the few plain values (contact ids) of a buffer
    /// cleared once a sequence: the last value taken off until none is left, cheaper for a few
    /// than the standard library's generic `replaceSubrange` (speed: docs/architecture.md). (Not
    /// for events: moving a large value out to drop it costs more than `replaceSubrange`.)
    @inline(__always)
    mutating func removeAllKeepingCapacity() {
        while !isEmpty { removeLast() }
    }
}
