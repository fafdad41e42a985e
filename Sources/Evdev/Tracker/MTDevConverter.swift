import CMtdev
import Glibc

/// Protocol A → protocol B through mtdev's plumbing API, with capabilities filled from
/// DeviceInfo so that it works for recordings as well as live devices (no fd needed).
/// mtdev keeps fixed-size ring buffers: putting and getting events does not allocate.
final class MTDevConverter {
    /// mtdev's DIM_FINGER: the slots its output uses.
    static let slotCount = 32

    private let dev: UnsafeMutablePointer<mtdev>
    private var out = input_event()
    /// mtdev's output for one SYN_REPORT (its ring holds at most this many events: DIM_EVENTS).
    private let converted = UnsafeMutableBufferPointer<InputEvent>.allocate(capacity: 512)

    init?(info: DeviceInfo) {
        guard let dev = mtdev_new() else { return nil }
        guard mtdev_init(dev) == 0 else {
            mtdev_delete(dev)
            return nil
        }
        self.dev = dev
        dev.pointee.caps.has_mtdata = 1
        dev.pointee.caps.has_slot = 0
        dev.pointee.caps.slot.minimum = 0
        dev.pointee.caps.slot.maximum = Int32(MTDevConverter.slotCount - 1)
        let codes: [UInt16] = [
            ABS.MT_TOUCH_MAJOR, ABS.MT_TOUCH_MINOR, ABS.MT_WIDTH_MAJOR, ABS.MT_WIDTH_MINOR,
            ABS.MT_ORIENTATION, ABS.MT_POSITION_X, ABS.MT_POSITION_Y, ABS.MT_TOOL_TYPE,
            ABS.MT_BLOB_ID, ABS.MT_TRACKING_ID, ABS.MT_PRESSURE,
        ]
        for code in codes {
            guard let axis = info.capabilities.axes[code] else { continue }
            let c = Int32(code)
            mtdev_set_mt_event(dev, c, 1)
            mtdev_set_abs_minimum(dev, c, axis.minimum)
            mtdev_set_abs_maximum(dev, c, axis.maximum)
            mtdev_set_abs_fuzz(dev, c, axis.fuzz)
            mtdev_set_abs_resolution(dev, c, axis.resolution)
        }
    }

    deinit {
        mtdev_close_delete(dev)
        converted.deallocate()
    }

    /// Feeds one protocol A event; after a SYN_REPORT, returns the protocol B events (valid until
    /// the next call). Out of line: the kernel event on the stack would cost the callers of the
    /// tracker's loop, every protocol's, a stack check.
    @inline(never)
    func put(_ e: InputEvent) -> UnsafeBufferPointer<InputEvent>? {
        var ev = input_event(e)
        mtdev_put_event(dev, &ev)
        guard e.type == EV.SYN && e.code == SYN.REPORT else { return nil }
        var n = 0
        while mtdev_empty(dev) == 0 && n < converted.count {
            mtdev_get_event(dev, &out)
            // Keep the exact time of the input event (no round trip through timeval).
            converted[n] = InputEvent(time: e.time, type: out.type, code: out.code, value: out.value)
            n += 1
        }
        return UnsafeBufferPointer(rebasing: converted[..<n])
    }
}
