import CLibevdev
import Evdev
import GestureKit
import Glibc
import Testing

/// `map_clone`: the clone's coordinates are the recognizers' normalized position, in the units of
/// the clone's axes (turned with the screen). Device: 1000×500 units, 10 units/mm, so a touch at
/// raw (200, 100) is 20 mm from the device's left edge and 10 mm from its top.
@Suite("clone mapping (map_clone)")
struct CloneMappingTests {
    static let x = AxisInfo(minimum: 0, maximum: 1000, resolution: 10)
    static let y = AxisInfo(minimum: 0, maximum: 500, resolution: 20)

    func mapping(_ r: Rotation, _ m: [Double] = CoordinateTransform.identityMatrix) -> CloneMapping {
        CloneMapping(x: Self.x, y: Self.y, transform: CoordinateTransform(rotation: r, calibration: m))
    }

    @Test("each rotation turns the place and the axes (90° and 270° swap range and resolution)", arguments: [
        // The device image turned clockwise: its top-left corner goes to the screen's top-right.
        (Rotation.none, Int32(200), Int32(100), Int32(1000), Int32(500), Int32(10)),
        (Rotation.clockwise90, Int32(400), Int32(200), Int32(500), Int32(1000), Int32(20)),
        (Rotation.clockwise180, Int32(800), Int32(400), Int32(1000), Int32(500), Int32(10)),
        (Rotation.clockwise270, Int32(100), Int32(800), Int32(500), Int32(1000), Int32(20)),
    ])
    func rotations(_ r: Rotation, _ x: Int32, _ y: Int32, _ maxX: Int32, _ maxY: Int32, _ resX: Int32) {
        let m = mapping(r)
        #expect(m.map(x: 200, y: 100) == (x, y))
        #expect(m.cloneX.maximum == maxX && m.cloneY.maximum == maxY && m.cloneX.resolution == resX)
        #expect(m.isIdentity == (r == .none))
    }

    @Test("corners land on corners in every rotation (the axes' ends are reachable, nothing off by one)")
    func corners() {
        for r in Rotation.allCases {
            let m = mapping(r)
            let mapped = [(0, 0), (1000, 0), (0, 500), (1000, 500)].map { m.map(x: Int32($0.0), y: Int32($0.1)) }
            let ends = Set(mapped.map { "\($0.x == m.cloneX.minimum || $0.x == m.cloneX.maximum)\($0.y == m.cloneY.minimum || $0.y == m.cloneY.maximum)" })
            #expect(ends == ["truetrue"], "rotation \(r.rawValue): \(mapped)")
            #expect(Set(mapped.map { "\($0.x),\($0.y)" }).count == 4)
        }
    }

    @Test("a calibration matrix is applied after the rotation, as libinput applies it; results stay on the axes")
    func calibration() {
        // Halve x and move it right by a quarter: x' = 0.5·u + 0.25.
        let m = mapping(.none, [0.5, 0, 0.25, 0, 1, 0])
        #expect(m.map(x: 200, y: 100) == (350, 100))
        #expect(m.map(x: 1000, y: 500) == (750, 500))
        // Beyond the screen: clamped to the axis, as the recognizers' position is.
        let off = mapping(.clockwise90, [1, 0, 0.5, 0, 1, -0.5])
        #expect(off.map(x: 1000, y: 0) == (500, 500))
        #expect(off.map(x: 0, y: 500) == (250, 0))
    }

    @Test("rounding is to the nearest unit, halves away from zero, with axes that do not start at 0")
    func rounding() {
        let m = CloneMapping(x: AxisInfo(minimum: 10, maximum: 14), y: AxisInfo(minimum: -2, maximum: 2),
                             transform: CoordinateTransform(rotation: .none, calibration: [0.5, 0, 0, 0, 1, 0]))
        // x' = 0.5·(x − 10)/4: 11 → 10.5 → 11; 13 → 11.5 → 12; 14 → 12 exactly.
        #expect(m.map(x: 11, y: 0) == (11, 0))
        #expect(m.map(x: 13, y: 2) == (12, 2))
        #expect(m.map(x: 14, y: -2) == (12, -2))
        // A negative half rounds away from zero too: y' = 0.125 on −2…2 is −1.5 → −2.
        let n = CloneMapping(x: AxisInfo(minimum: 0, maximum: 8), y: AxisInfo(minimum: -2, maximum: 2),
                             transform: CoordinateTransform(rotation: .none, calibration: [1, 0, 0, 0, 0.5, 0]))
        #expect(n.map(x: 0, y: -1) == (0, -2))
    }

    @Test("the clone agrees with the recognizers' position to within half a unit, every rotation, calibrated")
    func agreesWithGeometry() {
        let info = syntheticTouchscreen(width: 1000, height: 500)
        for r in Rotation.allCases {
            let t = CoordinateTransform(rotation: r, calibration: [0.9, 0.05, 0.02, -0.03, 1.1, -0.04])
            let g = DeviceGeometry(info: info, transform: t)
            let m = CloneMapping(x: info.x, y: info.y, transform: t)
            for rx in stride(from: Int32(0), through: 1000, by: 37) {
                for ry in stride(from: Int32(0), through: 500, by: 23) {
                    let p = g.map(x: rx, y: ry).position
                    let (cx, cy) = m.map(x: rx, y: ry)
                    let ux = Double(cx - m.cloneX.minimum) / m.cloneX.span, uy = Double(cy - m.cloneY.minimum) / m.cloneY.span
                    #expect(abs(ux - p.x) <= 0.5 / m.cloneX.span + 1e-9 && abs(uy - p.y) <= 0.5 / m.cloneY.span + 1e-9)
                }
            }
        }
    }

    @Test("a mapped clone writes the slot's position mapped, at the end of the slot's events, and maps late deliveries")
    func cloneWritesMapped() throws {
        var fds: [Int32] = [0, 0]
        _ = pipe(&fds)
        defer { close(fds[0]); close(fds[1]) }
        let clone = TouchClone(sink: FileFrameSink(fd: fds[1]), slotCount: 2, mapping: mapping(.clockwise90))
        _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
        func step(_ read: [(UInt16, UInt16, Int32)], _ outputs: [TouchRelay.Output], on clone: TouchClone = clone) throws -> [[Int]] {
            for (t, c, v) in read { clone.record(InputEvent(time: 0, type: t, code: c, value: v)) }
            try clone.write(outputs)
            var events = [input_event](repeating: input_event(), count: 64)
            let n = events.withUnsafeMutableBytes { Glibc.read(fds[0], $0.baseAddress, $0.count) }
            return events.prefix(max(0, n) / MemoryLayout<input_event>.stride).map { [Int($0.type), Int($0.code), Int($0.value)] }
        }
        #expect(try step([(EV.ABS, ABS.MT_SLOT, 1), (EV.ABS, ABS.MT_TRACKING_ID, 7), (EV.ABS, ABS.MT_POSITION_X, 200),
                          (EV.ABS, ABS.MT_POSITION_Y, 100), (EV.ABS, ABS.MT_PRESSURE, 30)], [.forward(slot: 1)])
            == [[3, 0x2f, 1], [3, 0x39, 1], [3, 0x3a, 30], [3, 0x35, 400], [3, 0x36, 200], [1, 0x14a, 1], [0, 0, 0]])
        // Only y moved: the mapped pair goes out (the kernel drops the unchanged one).
        #expect(try step([(EV.ABS, ABS.MT_POSITION_Y, 0)], [.forward(slot: 1)]) == [[3, 0x35, 500], [3, 0x36, 200], [0, 0, 0]])
        #expect(try step([(EV.ABS, ABS.MT_TRACKING_ID, -1)], [.forward(slot: 1)]) == [[3, 0x39, -1], [1, 0x14a, 0], [0, 0, 0]])
        #expect(try step([], [.begin(slot: 0, x: 1000, y: 500), .sync, .lift(slot: 0)])
            == [[3, 0x2f, 0], [3, 0x39, 2], [3, 0x35, 0], [3, 0x36, 1000], [1, 0x14a, 1], [0, 0, 0], [3, 0x39, -1], [1, 0x14a, 0], [0, 0, 0]])

        // A clone made while the kernel holds slot 1 at (200, 100) (a restart): a contact there at
        // the same x sends only its y, and the clone maps it beside the held x, not beside x = 0.
        let restarted = TouchClone(sink: FileFrameSink(fd: fds[1]), slotCount: 2, mapping: mapping(.clockwise90))
        restarted.startAt([(0, 0), (200, 100)])
        #expect(try step([(EV.ABS, ABS.MT_SLOT, 1), (EV.ABS, ABS.MT_TRACKING_ID, 9), (EV.ABS, ABS.MT_POSITION_Y, 0)],
                         [.forward(slot: 1)], on: restarted)
            == [[3, 0x2f, 1], [3, 0x39, 1], [3, 0x35, 500], [3, 0x36, 200], [1, 0x14a, 1], [0, 0, 0]])
    }
}
