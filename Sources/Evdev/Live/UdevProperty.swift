import CLibudev

/// One udev property of an event node, read from udev's database (nil when udev does not run,
/// the node is unknown or the property unset): what a rule gave the device, as libinput reads it.
public enum UdevProperty {
    public static func value(_ key: String, devnode: String) -> String? {
        guard let slash = devnode.lastIndex(of: "/"), let udev = udev_new() else { return nil }
        defer { udev_unref(udev) }
        let sysname = String(devnode[devnode.index(after: slash)...])
        guard let d = udev_device_new_from_subsystem_sysname(udev, "input", sysname) else { return nil }
        defer { udev_device_unref(d) }
        return udev_device_get_property_value(d, key).map { String(cString: $0) }
    }
}
