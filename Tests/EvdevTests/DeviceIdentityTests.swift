import Testing
@testable import Evdev

/// Two identical touchscreens (same bus, vendor and product) must not share an id: clients and
/// bindings tell devices apart by it.
@Suite struct DeviceIdentityTests {
    func device(properties: [String: String], devnode: String?) -> DeviceInfo {
        let caps = syntheticTouchscreen().capabilities
        return DeviceInfo(name: "Wacom ISDv4 E6 Finger", bus: 0x03, vendor: 0x056a, product: 0x00e6, version: 1,
                          capabilities: caps, properties: properties, devnode: devnode)
    }

    @Test func theIdNamesTheModelAndThePort() {
        let a = device(properties: ["ID_PATH": "pci-0000:00:14.0-usb-0:2:1.0"], devnode: "/dev/input/event4")
        let b = device(properties: ["ID_PATH": "pci-0000:00:14.0-usb-0:3:1.0"], devnode: "/dev/input/event5")
        #expect(a.id == "usb-056a:00e6@pci-0000:00:14.0-usb-0:2:1.0")
        #expect(b.id == "usb-056a:00e6@pci-0000:00:14.0-usb-0:3:1.0")
    }

    @Test func virtualDevicesWithoutAPortUseTheirNode() {
        let a = device(properties: [:], devnode: "/dev/input/event4")
        let b = device(properties: ["ID_PATH": ""], devnode: "/dev/input/event7")
        #expect(a.id == "usb-056a:00e6@event4")
        #expect(b.id == "usb-056a:00e6@event7")
    }
}
