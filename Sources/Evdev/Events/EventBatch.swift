import CLibevdev

/// The input events one read(2) took from a device (EvdevDevice.read), in the device's buffer:
/// valid until its next read. Read as `InputEvent`s it converts each kernel time to seconds;
/// `DevicePipeline.feed(_:onGesture:)` reads the kernel's fields instead (`InputEvents`) and
/// converts the time of the frame's SYN_REPORT only.
public struct EventBatch: RandomAccessCollection, InputEvents {
    let base: UnsafePointer<input_event>
    public let endIndex: Int

    /// `count` events from `base` (a read's buffer; the benchmarks' recorded reads).
    public init(base: UnsafePointer<input_event>, count: Int) {
        self.base = base
        endIndex = count
    }

    public var startIndex: Int { 0 }

    public subscript(i: Int) -> InputEvent { InputEvent(base[i]) }

    @inline(__always) func part(_ range: Range<Int>) -> EventBatch {
        EventBatch(base: base + range.lowerBound, count: range.count)
    }

    @inline(__always) func type(at i: Int) -> UInt16 { base[i].type }
    @inline(__always) func code(at i: Int) -> UInt16 { base[i].code }
    @inline(__always) func value(at i: Int) -> Int32 { base[i].value }
    @inline(__always) func time(at i: Int) -> Double { InputEvent.seconds(base[i]) }
}

extension InputEvent {
    /// A kernel event, its time in seconds.
    @inline(__always)
    init(_ ev: input_event) {
        self.init(time: Self.seconds(ev), type: ev.type, code: ev.code, value: ev.value)
    }

    @inline(__always)
    static func seconds(_ ev: input_event) -> Double {
        Double(ev.time.tv_sec) + Double(ev.time.tv_usec) / 1_000_000
    }
}

extension input_event {
    /// The kernel's form of an event, its time in whole microseconds.
    public init(_ e: InputEvent) {
        self.init()
        let sec = e.time.rounded(.down)
        time.tv_sec = Int(sec)
        time.tv_usec = Int(((e.time - sec) * 1_000_000).rounded())
        type = e.type
        code = e.code
        value = e.value
    }
}
