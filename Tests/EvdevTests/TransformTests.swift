import Evdev
import GestureKit
import Testing

/// 100×50 mm device (1000×500 units at 10 units/mm); a touch at raw (200, 100) is 20 mm from
/// the left and 10 mm from the top of the device.
@Suite("coordinate transform: rotation, calibration, size")
struct TransformTests {
    let info = syntheticTouchscreen()

    func mapped(_ t: CoordinateTransform) -> (Point, Point, Surface) {
        let g = DeviceGeometry(info: info, transform: t)
        let (mm, p) = g.map(x: 200, y: 100)
        return (mm, p, g.surface)
    }

    @Test("rotation turns millimetres, normalized coordinates and the surface", arguments: [
        // Device image turned clockwise: the device's top-left corner goes to the top-right.
        (Rotation.none, Point(x: 20, y: 10), Point(x: 0.2, y: 0.2), 100.0, 50.0),
        (Rotation.clockwise90, Point(x: 40, y: 20), Point(x: 0.8, y: 0.2), 50.0, 100.0),
        (Rotation.clockwise180, Point(x: 80, y: 40), Point(x: 0.8, y: 0.8), 100.0, 50.0),
        (Rotation.clockwise270, Point(x: 10, y: 80), Point(x: 0.2, y: 0.8), 50.0, 100.0),
    ])
    func rotation(_ r: Rotation, _ mm: Point, _ position: Point, _ w: Double, _ h: Double) {
        let (gotMM, gotPosition, surface) = mapped(CoordinateTransform(rotation: r))
        #expect(close(gotMM.x, mm.x) && close(gotMM.y, mm.y))
        #expect(close(gotPosition.x, position.x) && close(gotPosition.y, position.y))
        #expect(surface.widthMM == w && surface.heightMM == h)
    }

    @Test("calibration applies to normalized coordinates, not to millimetres")
    func calibration() throws {
        // libinput's example: x' = 0.5·x + 0.1, y' = 2·y − 0.2 (applied after rotation).
        let m = try CoordinateTransform.parseCalibrationMatrix("0.5 0 0.1 0 2 -0.2")
        let (mm, p, _) = mapped(CoordinateTransform(calibration: m))
        #expect(close(p.x, 0.5 * 0.2 + 0.1) && close(p.y, 2 * 0.2 - 0.2))
        #expect(mm == Point(x: 20, y: 10))
        // The udev property, as libinput reads it: a 90° rotation matrix "0 -1 1 1 0 0".
        let t = try CoordinateTransform.fromProperties(["LIBINPUT_CALIBRATION_MATRIX": "0 -1 1 1 0 0"])
        let (_, q, _) = mapped(t)
        #expect(close(q.x, 1 - 0.2) && close(q.y, 0.2))
    }

    @Test("bad calibration matrices are rejected with a reason", arguments: ["1 0 0 0 1", "1 0 0 0 1 x", "", "1 0 0 0 1 0 7", "nan 0 0 0 1 0"])
    func badCalibration(_ text: String) {
        #expect(throws: CalibrationError.self) { try CoordinateTransform.parseCalibrationMatrix(text) }
    }

    @Test("a configured size overrides resolution")
    func sizeOverride() {
        let (mm, p, surface) = mapped(CoordinateTransform(sizeMMOverride: SizeMM(width: 200, height: 100)))
        #expect(mm == Point(x: 40, y: 20))
        #expect(p == Point(x: 0.2, y: 0.2))
        #expect(surface.widthMM == 200)
    }

    @Test("rotation from degrees")
    func degrees() {
        #expect(Rotation(degrees: 90) == .clockwise90)
        #expect(Rotation(degrees: -90) == .clockwise270)
        #expect(Rotation(degrees: 45) == nil)
    }

    @Test("size fallbacks: one axis with resolution, touchpad, touchscreen diagonal")
    func fallbacks() {
        let x = AxisInfo(minimum: 0, maximum: 3000, resolution: 0)
        let y = AxisInfo(minimum: 0, maximum: 4000, resolution: 0)
        let screen = DeviceSize.estimate(x: x, y: y, kind: .touchscreen)
        // hypot(3000, 4000) = 5000 units ↔ 396.24 mm: 0.079248 mm/unit.
        #expect(screen.isFallback && close(screen.size.width, 237.744) && close(screen.size.height, 316.992))
        #expect(DeviceSize.estimate(x: x, y: y, kind: .touchpad).size == SizeMM(width: 69, height: 50))
        let half = DeviceSize.estimate(x: AxisInfo(minimum: 0, maximum: 3000, resolution: 30), y: y, kind: .touchpad)
        #expect(half.isFallback && half.size == SizeMM(width: 100, height: 4000.0 / 30))
    }
}

@Suite("device size description")
struct SizeDescriptionTests {
    @Test("says where the size comes from")
    func describe() throws {
        let wacom = try Recording.load(path: Fixture.recording("tablets/Wacom_ISDv4_E6_Finger.single-tap-center.events")).info
        // 2776 and 1569 units × 0.1242630 mm/unit (see TrackerRecordingTests).
        #expect(wacom.sizeDescription() == "344.95 × 194.97 mm (fallback: resolution 0; assumed a 15.6-inch diagonal with square units (set size_mm))")
        #expect(wacom.sizeDescription(transform: CoordinateTransform(sizeMMOverride: SizeMM(width: 276, height: 156)))
            == "276 × 156 mm (size_mm from the config)")
        #expect(syntheticTouchscreen().sizeDescription() == "100 × 50 mm (axis resolution 10×10 units/mm)")
    }
}

@Suite("device info")
struct DeviceInfoTests {
    @Test("stable id from bus, vendor and product; protocol alias")
    func stableID() {
        #expect(DeviceInfo.stableID(bus: 3, vendor: 0x056a, product: 0x00e6) == "usb-056a:00e6")
        #expect(DeviceInfo.stableID(bus: 0x18, vendor: 0x04f3, product: 0x2a1c) == "i2c-04f3:2a1c")
        #expect(DeviceInfo.stableID(bus: 0x42, vendor: 1, product: 2) == "bus0042-0001:0002")
        let info = syntheticTouchscreen()
        #expect(info.touchProtocol == .multitouchB)
    }

    @Test("kind follows udev: its properties first, then the capability rules")
    func kind() {
        let touchpadCaps = DeviceCapabilities(keys: [BTN.TOUCH, BTN.TOOL_FINGER],
                                              axes: [ABS.X: AxisInfo(minimum: 0, maximum: 10), ABS.Y: AxisInfo(minimum: 0, maximum: 10)])
        #expect(DeviceInfo.classify(touchpadCaps) == .touchpad)
        var direct = touchpadCaps
        direct.properties = [InputProp.DIRECT]
        #expect(DeviceInfo.classify(direct) == .touchscreen)
        var pen = touchpadCaps
        pen.keys.insert(BTN.TOOL_PEN)
        #expect(DeviceInfo.classify(pen) == .other)
        let mouse = DeviceCapabilities(keys: [BTN.LEFT], axes: touchpadCaps.axes)
        #expect(DeviceInfo.classify(mouse) == .other)
        #expect(DeviceInfo.classify(mouse, properties: ["ID_INPUT_TOUCHSCREEN": "1"]) == .touchscreen)
        // As udev's input_id: with ABS_X/ABS_Y only, a mouse button makes an absolute mouse even
        // beside BTN_TOUCH or INPUT_PROP_DIRECT (a single-touch panel reporting BTN_LEFT is a
        // touchscreen only when udev says so); multitouch positions with BTN_TOUCH or
        // INPUT_PROP_DIRECT make a touchscreen whatever the buttons.
        var leftAndTouch = mouse
        leftAndTouch.keys.insert(BTN.TOUCH)
        #expect(DeviceInfo.classify(leftAndTouch) == .other)
        var rightAndDirect = DeviceCapabilities(keys: [0x111], axes: touchpadCaps.axes)
        rightAndDirect.properties = [InputProp.DIRECT]
        #expect(DeviceInfo.classify(rightAndDirect) == .other)
        #expect(DeviceInfo.classify(DeviceCapabilities(keys: [BTN.TOUCH, 0x120], axes: touchpadCaps.axes)) == .touchscreen)
        var multitouch = leftAndTouch
        multitouch.axes[ABS.MT_POSITION_X] = AxisInfo(minimum: 0, maximum: 10)
        multitouch.axes[ABS.MT_POSITION_Y] = AxisInfo(minimum: 0, maximum: 10)
        #expect(DeviceInfo.classify(multitouch) == .touchscreen)
        // A device claiming every axis (ABS_MT_SLOT - 1 too) has no real multitouch positions.
        multitouch.axes[ABS.MT_SLOT] = AxisInfo(minimum: 0, maximum: 9)
        multitouch.axes[ABS.MT_SLOT - 1] = AxisInfo(minimum: 0, maximum: 1)
        #expect(DeviceInfo.classify(multitouch) == .other)
    }
}
