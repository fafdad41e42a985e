/// The kernel's view of one multitouch slot at one moment (libevdev_get_slot_value): used to
/// start a tracker with touches already down and to resynchronize after SYN_DROPPED.
public struct SlotSnapshot: Sendable, Equatable {
    /// -1 when the slot is empty.
    public var trackingID: Int32
    public var x: Int32
    public var y: Int32
    public var tool: Int32

    public init(trackingID: Int32, x: Int32, y: Int32, tool: Int32 = MTTool.FINGER) {
        self.trackingID = trackingID
        self.x = x
        self.y = y
        self.tool = tool
    }

    public static let empty = SlotSnapshot(trackingID: -1, x: 0, y: 0)
}
