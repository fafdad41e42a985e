/// Events in memory as the contact tracker reads them (`ContactTracker.feed`): a read's kernel
/// events (`EventBatch`) or recorded ones (`UnsafeBufferPointer<InputEvent>`). The tracker's one
/// loop is specialized for each: a field read is a load, and the time is only converted for
/// the events that end a frame.
protocol InputEvents {
    var endIndex: Int { get }
    func type(at i: Int) -> UInt16
    func code(at i: Int) -> UInt16
    func value(at i: Int) -> Int32
    func time(at i: Int) -> Double
    /// The events in `range`, as events of their own (a frame of a read: a staged pipeline feeds
    /// the tracker frame by frame).
    func part(_ range: Range<Int>) -> Self
}

extension InputEvents {
    @inline(__always)
    func event(at i: Int) -> InputEvent {
        InputEvent(time: time(at: i), type: type(at: i), code: code(at: i), value: value(at: i))
    }
}

extension UnsafeBufferPointer: InputEvents where Element == InputEvent {
    @inline(__always) func type(at i: Int) -> UInt16 { self[i].type }
    @inline(__always) func code(at i: Int) -> UInt16 { self[i].code }
    @inline(__always) func value(at i: Int) -> Int32 { self[i].value }
    @inline(__always) func time(at i: Int) -> Double { self[i].time }
    @inline(__always) func part(_ range: Range<Int>) -> Self { UnsafeBufferPointer(rebasing: self[range]) }
}
