import CLibevdev
import CLibudev
import Glibc

/// A touch device node worth opening.
public struct DeviceCandidate: Sendable, Equatable {
    public var devnode: String
    /// udev properties (ID_INPUT_TOUCHSCREEN, LIBINPUT_CALIBRATION_MATRIX, …); empty without udev.
    public var properties: [String: String]

    public init(devnode: String, properties: [String: String] = [:]) {
        self.devnode = devnode
        self.properties = properties
    }
}

public enum DeviceChange: Sendable, Equatable {
    case added(DeviceCandidate)
    case removed(devnode: String)
}

/// Finds touch devices and reports hotplug.
///
/// With a udev daemon (its control socket /run/udev/control exists): enumerates input devices
/// that udev tagged ID_INPUT_TOUCHSCREEN=1 or ID_INPUT_TOUCHPAD=1 and listens on the udev
/// netlink monitor. Without one (containers, minimal images, initramfs): scans
/// /dev/input/event*, classifies each node from its evdev capabilities with udev's rules
/// (DeviceInfo.classify), and watches /dev/input with inotify. `notice` says which, once.
/// Either way, virtual devices made by gestured (UInputDevice.isGestured) are never candidates.
public final class DeviceMonitor {
    public enum Mode: Sendable, Equatable {
        case udev
        case scan
    }

    public let mode: Mode
    /// For the daemon's log: how devices are discovered, when that is worth saying.
    public let notice: String?
    private let inputDirectory: String
    private var udev: OpaquePointer?
    private var monitor: OpaquePointer?
    private var inotifyFD: Int32 = -1
    private var watchingParent = false
    /// Nodes reported as added, so that removals and retries are consistent.
    private var known: Set<String> = []

    /// Readable when `receive()` has something; -1 when nothing can be watched.
    public var fd: Int32 {
        if let monitor { return udev_monitor_get_fd(monitor) }
        return inotifyFD
    }

    public init(inputDirectory: String = "/dev/input", udevControl: String = "/run/udev/control") {
        self.inputDirectory = inputDirectory
        if access(udevControl, F_OK) == 0, let u = udev_new() {
            udev = u
            if let m = udev_monitor_new_from_netlink(u, "udev") {
                udev_monitor_filter_add_match_subsystem_devtype(m, "input", nil)
                if udev_monitor_enable_receiving(m) == 0 {
                    monitor = m
                    let flags = fcntl(udev_monitor_get_fd(m), F_GETFL)
                    _ = fcntl(udev_monitor_get_fd(m), F_SETFL, flags | O_NONBLOCK)
                } else {
                    udev_monitor_unref(m)
                }
            }
            mode = .udev
            notice = monitor == nil ? "udev is running but its monitor could not be opened: no hotplug" : nil
            return
        }
        mode = .scan
        notice = "no udev daemon (\(udevControl) absent): scanning \(inputDirectory)/event* and watching it with inotify"
        inotifyFD = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        if inotifyFD >= 0 { watchInputDirectory() }
    }

    deinit {
        if let monitor { udev_monitor_unref(monitor) }
        if let udev { udev_unref(udev) }
        if inotifyFD >= 0 { close(inotifyFD) }
    }

    /// The touch devices present now.
    public func enumerate() -> [DeviceCandidate] {
        let found = mode == .udev ? enumerateUdev() : scanDirectory()
        known = Set(found.map(\.devnode))
        return found.sorted { $0.devnode < $1.devnode }
    }

    /// Changes since the last call; never blocks.
    public func receive() -> [DeviceChange] {
        mode == .udev ? receiveUdev() : receiveInotify()
    }

    // MARK: udev

    public static let touchProperties = ["ID_INPUT_TOUCHSCREEN", "ID_INPUT_TOUCHPAD"]

    private func enumerateUdev() -> [DeviceCandidate] {
        guard let udev, let e = udev_enumerate_new(udev) else { return [] }
        defer { udev_enumerate_unref(e) }
        udev_enumerate_add_match_subsystem(e, "input")
        guard udev_enumerate_scan_devices(e) >= 0 else { return [] }
        var out: [DeviceCandidate] = []
        var entry = udev_enumerate_get_list_entry(e)
        while let current = entry {
            if let path = udev_list_entry_get_name(current),
               let d = udev_device_new_from_syspath(udev, path) {
                if let c = candidate(d) { out.append(c) }
                udev_device_unref(d)
            }
            entry = udev_list_entry_get_next(current)
        }
        return out
    }

    private func candidate(_ d: OpaquePointer) -> DeviceCandidate? {
        guard let node = udev_device_get_devnode(d).map({ String(cString: $0) }), isEventNode(node) else { return nil }
        var props: [String: String] = [:]
        var entry = udev_device_get_properties_list_entry(d)
        while let current = entry {
            if let k = udev_list_entry_get_name(current) {
                props[String(cString: k)] = udev_list_entry_get_value(current).map { String(cString: $0) } ?? ""
            }
            entry = udev_list_entry_get_next(current)
        }
        guard Self.touchProperties.contains(where: { props[$0] == "1" }), !UInputDevice.isGestured(devnode: node) else { return nil }
        return DeviceCandidate(devnode: node, properties: props)
    }

    private func receiveUdev() -> [DeviceChange] {
        guard let monitor else { return [] }
        var changes: [DeviceChange] = []
        while let d = udev_monitor_receive_device(monitor) {
            defer { udev_device_unref(d) }
            let action = udev_device_get_action(d).map { String(cString: $0) } ?? ""
            guard let node = udev_device_get_devnode(d).map({ String(cString: $0) }), isEventNode(node) else { continue }
            switch action {
            case "add", "change":
                if let c = candidate(d), !known.contains(node) {
                    known.insert(node)
                    changes.append(.added(c))
                }
            case "remove":
                if known.remove(node) != nil { changes.append(.removed(devnode: node)) }
            default:
                break
            }
        }
        return changes
    }

    // MARK: scanning without udev

    private func isEventNode(_ path: String) -> Bool {
        guard let slash = path.lastIndex(of: "/") else { return false }
        return path[path.index(after: slash)...].hasPrefix("event")
    }

    /// Opens a node just long enough to classify it.
    private func classify(_ node: String) -> DeviceCandidate? {
        guard !UInputDevice.isGestured(devnode: node), let device = try? EvdevDevice(devnode: node) else { return nil }
        switch device.info.kind {
        case .touchscreen: return DeviceCandidate(devnode: node, properties: ["ID_INPUT_TOUCHSCREEN": "1"])
        case .touchpad: return DeviceCandidate(devnode: node, properties: ["ID_INPUT_TOUCHPAD": "1"])
        case .other: return nil
        }
    }

    private func scanDirectory() -> [DeviceCandidate] {
        TextFile.list(inputDirectory).filter { $0.hasPrefix("event") }.compactMap { classify(inputDirectory + "/" + $0) }
    }

    private func watchInputDirectory() {
        let mask = UInt32(IN_CREATE | IN_DELETE | IN_ATTRIB | IN_MOVED_TO | IN_MOVED_FROM)
        if inotify_add_watch(inotifyFD, inputDirectory, mask) >= 0 {
            watchingParent = false
            return
        }
        // No /dev/input yet (no input device ever appeared): wait for it in the parent.
        let parent = splitPath(inputDirectory).dir
        watchingParent = inotify_add_watch(inotifyFD, parent, UInt32(IN_CREATE | IN_MOVED_TO)) >= 0
    }

    private func receiveInotify() -> [DeviceChange] {
        guard inotifyFD >= 0 else { return [] }
        var changes: [DeviceChange] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(inotifyFD, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= n {
                let (mask, len, name) = buffer.withUnsafeBytes { raw -> (UInt32, Int, String) in
                    let ev = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    let start = offset + MemoryLayout<inotify_event>.size
                    let bytes = raw[start..<min(start + Int(ev.len), raw.count)].prefix { $0 != 0 }
                    return (ev.mask, Int(ev.len), String(decoding: bytes, as: UTF8.self))
                }
                offset += MemoryLayout<inotify_event>.size + len
                if watchingParent {
                    if name == splitPath(inputDirectory).name {
                        watchInputDirectory()
                        for c in scanDirectory() where !known.contains(c.devnode) {
                            known.insert(c.devnode)
                            changes.append(.added(c))
                        }
                    }
                    continue
                }
                guard name.hasPrefix("event") else { continue }
                let node = inputDirectory + "/" + name
                if mask & UInt32(IN_DELETE | IN_MOVED_FROM) != 0 {
                    if known.remove(node) != nil { changes.append(.removed(devnode: node)) }
                } else if !known.contains(node), let c = classify(node) {
                    // IN_ATTRIB matters: a node may be unreadable when created and readable once
                    // its permissions are set.
                    known.insert(node)
                    changes.append(.added(c))
                }
            }
        }
        return changes
    }
}
