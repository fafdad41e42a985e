import CLibevdev
import Glibc

extension EvdevDevice {
    /// The panel as its clone copies it (ClonePanel): read from libevdev's description, taken
    /// at open and unchanged for the node's life. `mapping`: the clone's `map_clone` transform.
    public func clonePanel(mapping: CoordinateTransform?) -> ClonePanel {
        func text(_ s: UnsafePointer<CChar>?) -> String { s.map { String(cString: $0) } ?? "" }
        let identity = PanelIdentity(info, phys: text(libevdev_get_phys(dev)), uniq: text(libevdev_get_uniq(dev)))
        var shape = PanelShape()
        for type in UInt32(0)...UInt32(EV_MAX) where libevdev_has_event_type(dev, type) != 0 {
            let max = libevdev_event_type_get_max(type)
            guard max >= 0 else { continue }
            var codes = Set<UInt16>()
            for code in UInt32(0)...UInt32(max) where libevdev_has_event_code(dev, type, code) != 0 {
                codes.insert(UInt16(code))
                guard type == EV_ABS, let a = libevdev_get_abs_info(dev, code) else { continue }
                shape.axes[UInt16(code)] = AxisInfo(minimum: a.pointee.minimum, maximum: a.pointee.maximum, fuzz: a.pointee.fuzz,
                                                    flat: a.pointee.flat, resolution: a.pointee.resolution)
            }
            shape.codes[UInt16(type)] = codes
        }
        for p in UInt32(0)...UInt32(INPUT_PROP_MAX) where libevdev_has_property(dev, p) != 0 { shape.properties.insert(UInt16(p)) }
        return ClonePanel(identity: identity, shape: shape, mapping: mapping)
    }
}
