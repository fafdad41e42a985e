/// Who produced an event or frame, as clients see it.
public struct DeviceLabel: Sendable, Equatable {
    /// The device's name, e.g. "Wacom ISDv4 E6 Finger".
    public var name: String
    /// A stable id: "usb-0003:056a:00e6" style vendor/product/bus, or the recording's file name.
    public var id: String

    public init(name: String, id: String) {
        self.name = name
        self.id = id
    }
}

extension GestureEvent {
    /// One JSON object, without a trailing newline: the line socket clients and MQTT subscribers
    /// receive. Keys are the fields of `GestureEvent` in snake_case (`kind` is `gesture`, `tapCount`
    /// `count`); absent ones are left out (`region` is always there, null outside every region).
    public func json(device: DeviceLabel) -> String {
        var w = JSONWriter()
        write(to: &w, device: device)
        return w.text
    }

    public func write(to w: inout JSONWriter, device: DeviceLabel) {
        w.beginObject()
        w.key("time"); w.number(time, decimals: 6)
        w.key("device"); w.string(device.name)
        w.key("device_id"); w.string(device.id)
        w.key("gesture"); w.string(kind.rawValue)
        w.key("phase"); w.string(phase.rawValue)
        w.key("fingers"); w.int(fingers)
        w.point("center", center)
        w.point("center_mm", centerMM, decimals: 2)
        if let v = radiusMM { w.key("radius_mm"); w.number(v, decimals: 2) }
        if let v = fitError { w.key("fit_error"); w.number(v) }
        if let v = direction { w.key("direction"); w.string(v.rawValue) }
        if let v = turns { w.key("turns"); w.number(v, decimals: 2) }
        if let v = reversals { w.key("reversals"); w.int(v) }
        if let v = shape { w.key("shape"); w.string(v) }
        if let v = score { w.key("score"); w.number(v, decimals: 3) }
        if let v = translationMM { w.point("translation_mm", v, decimals: 2) }
        if let v = velocityMM { w.point("velocity_mm", v, decimals: 1) }
        if let v = restingPoint { w.point("resting_point", v) }
        if let v = restingPointMM { w.point("resting_point_mm", v, decimals: 2) }
        if let v = scale { w.key("scale"); w.number(v) }
        if let v = rotation { w.key("rotation"); w.number(v) }
        if let v = distanceMM { w.key("distance_mm"); w.number(v, decimals: 2) }
        if let v = speedMM { w.key("speed_mm"); w.number(v, decimals: 1) }
        if let v = edge { w.key("edge"); w.string(v.rawValue) }
        if let v = tapCount { w.key("count"); w.int(v) }
        if let v = duration { w.key("duration"); w.number(v, decimals: 3) }
        if let v = region { w.key("region"); w.string(v) } else { w.key("region"); w.null() }
        w.endObject()
    }
}

extension TouchFrame {
    /// One JSON object for `gestured replay --frames`, without a trailing newline.
    public func json(device: DeviceLabel) -> String {
        var w = JSONWriter(capacity: 128 + 160 * contacts.count)
        w.beginObject()
        w.key("time"); w.number(time, decimals: 6)
        w.key("device"); w.string(device.name)
        w.key("device_id"); w.string(device.id)
        w.key("contacts")
        w.beginArray()
        for c in contacts {
            w.beginObject()
            w.key("id"); w.int(Int(c.id))
            w.key("slot"); w.int(Int(c.slot))
            w.key("phase"); w.string(c.phase.name)
            w.key("x"); w.number(c.position.x)
            w.key("y"); w.number(c.position.y)
            w.key("x_mm"); w.number(c.mm.x, decimals: 2)
            w.key("y_mm"); w.number(c.mm.y, decimals: 2)
            w.key("tool"); w.string(c.tool.name)
            w.endObject()
        }
        w.endArray()
        w.endObject()
        return w.text
    }
}

extension ContactPhase {
    public var name: String {
        switch self {
        case .began: "began"
        case .moved: "moved"
        case .stationary: "stationary"
        case .ended: "ended"
        case .cancelled: "cancelled"
        }
    }
}
