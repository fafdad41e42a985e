import GestureKit
import Testing
@testable import Evdev

/// A panel that goes and comes back gets its clone again only when it is the same panel,
/// unchanged (ClonePanel.fit); a clone waits a bounded time and a bounded number wait
/// (KeptClones). The clones here are names: the decisions need no uinput.
@Suite struct KeptClonesTests {
    static let port = "pci-0000:00:14.0-usb-0:2:1.0"

    func info(name: String = "ILITEK ILITEK-TP", product: UInt16 = 0x0079, version: UInt16 = 0x0110,
              path: String? = port) -> DeviceInfo {
        DeviceInfo(name: name, bus: 0x03, vendor: 0x222a, product: product, version: version,
                   capabilities: syntheticTouchscreen().capabilities,
                   properties: path.map { ["ID_PATH": $0] } ?? [:], devnode: "/dev/input/event5")
    }

    func shape(slots: Int32 = 10, width: Int32 = 4095, resolution: Int32 = 16, properties: Set<UInt16> = [InputProp.DIRECT],
               keys: Set<UInt16> = [BTN.TOUCH]) -> PanelShape {
        let axis = AxisInfo(minimum: 0, maximum: width, resolution: resolution)
        let axes: [UInt16: AxisInfo] = [ABS.X: axis, ABS.Y: axis, ABS.MT_SLOT: AxisInfo(minimum: 0, maximum: slots - 1),
                                        ABS.MT_POSITION_X: axis, ABS.MT_POSITION_Y: axis,
                                        ABS.MT_TRACKING_ID: AxisInfo(minimum: 0, maximum: 65535)]
        return PanelShape(codes: [EV.SYN: [0], EV.KEY: keys, EV.ABS: Set(axes.keys)], axes: axes, properties: properties)
    }

    func panel(_ info: DeviceInfo? = nil, phys: String = "usb-0000:00:14.0-2/input0", uniq: String = "",
               shape: PanelShape? = nil, mapping: CoordinateTransform? = nil) -> ClonePanel {
        ClonePanel(identity: PanelIdentity(info ?? self.info(), phys: phys, uniq: uniq), shape: shape ?? self.shape(), mapping: mapping)
    }

    // MARK: identity and fit

    @Test func theSamePanelBackOnItsPortFitsWhateverItsNode() {
        var again = info()
        again.devnode = "/dev/input/event9"  // a replug takes the next free node
        #expect(panel().fit(panel(again)) == .fits)
    }

    @Test func theLocationIsTheUdevPathElseThePhys() {
        #expect(PanelIdentity(info(), phys: "usb-0000:00:14.0-2/input0", uniq: "").location == Self.port)
        #expect(PanelIdentity(info(path: nil), phys: "py-evdev-uinput", uniq: "").location == "py-evdev-uinput")
        #expect(PanelIdentity(info(path: ""), phys: "i2c-1/input0", uniq: "").location == "i2c-1/input0")
    }

    @Test func anotherPanelNeverFits() {
        let base = panel()
        #expect(base.fit(panel(info(name: "Other Panel"))) == .otherPanel)
        #expect(base.fit(panel(info(product: 0x0080))) == .otherPanel)
        #expect(base.fit(panel(info(version: 0x0111))) == .otherPanel, "new firmware may report otherwise")
        #expect(base.fit(panel(info(path: "pci-0000:00:14.0-usb-0:3:1.0"))) == .otherPanel, "the identical panel on the next port")
        #expect(base.fit(panel(uniq: "SN123")) == .otherPanel, "another unit of the same model")
    }

    @Test func theSamePanelChangedDoesNotFit() {
        let base = panel()
        #expect(base.fit(panel(shape: shape(slots: 5))) == .otherShape("10 slots, now 5"))
        #expect(base.fit(panel(shape: shape(width: 2047))) == .otherShape("axis 0x0 0…4095 (fuzz 0, flat 0, resolution 16), now 0…2047 (fuzz 0, flat 0, resolution 16)"))
        guard case .otherShape = base.fit(panel(shape: shape(resolution: 0))) else { Issue.record("a changed resolution fitted"); return }
        guard case .otherShape = base.fit(panel(shape: shape(properties: []))) else { Issue.record("lost INPUT_PROP_DIRECT fitted"); return }
        guard case .otherShape = base.fit(panel(shape: shape(keys: [BTN.TOUCH, BTN.LEFT]))) else { Issue.record("a new key fitted"); return }
        var size = shape()
        size.axes[ABS.MT_TOUCH_MAJOR] = AxisInfo(minimum: 0, maximum: 255)
        guard case .otherShape = base.fit(panel(shape: size)) else { Issue.record("a new axis fitted"); return }
    }

    @Test func aMappingChangedByAReloadDoesNotFit() {
        var rotated = CoordinateTransform.identity
        rotated.rotation = .clockwise90
        #expect(panel().fit(panel(mapping: rotated)) == .otherMapping)
        #expect(panel(mapping: rotated).fit(panel(mapping: rotated)) == .fits)
    }

    // MARK: keeping and expiring

    @Test func aClonePanelReturningInTimeIsTakenBackOnce() {
        var kept = KeptClones<String>()
        #expect(kept.keep("event7", panel: panel(), seconds: 60, now: 100).isEmpty)
        #expect(kept.deadline == 160)
        #expect(kept.expire(now: 159.9).isEmpty)
        let back = kept.take(for: panel())
        #expect(back.fitting == "event7")
        #expect(back.stale.isEmpty)
        #expect(kept.isEmpty && kept.deadline == nil)
        #expect(kept.take(for: panel()).fitting == nil, "a clone serves one return")
    }

    @Test func aClonePanelNotReturningGoesAtItsTime() {
        var kept = KeptClones<String>()
        _ = kept.keep("event7", panel: panel(), seconds: 60, now: 100)
        _ = kept.keep("event8", panel: panel(info(name: "B")), seconds: 10, now: 120)
        #expect(kept.deadline == 130)
        #expect(kept.expire(now: 130).map(\.clone) == ["event8"])
        #expect(kept.deadline == 160)
        #expect(kept.expire(now: 1_000).map(\.clone) == ["event7"])
        #expect(kept.isEmpty)
    }

    @Test func noTimeMeansRemovedAtOnce() {
        var kept = KeptClones<String>()
        #expect(kept.keep("event7", panel: panel(), seconds: 0, now: 100) == ["event7"])
        #expect(kept.isEmpty)
    }

    @Test func anotherPanelGetsNoClone() {
        var kept = KeptClones<String>()
        _ = kept.keep("event7", panel: panel(), seconds: 60, now: 100)
        let other = kept.take(for: panel(info(name: "Other Panel")))
        #expect(other.fitting == nil && other.stale.isEmpty)
        #expect(kept.kept.map(\.clone) == ["event7"], "it still waits for its own")
    }

    @Test func itsPanelBackChangedRemovesIt() {
        var kept = KeptClones<String>()
        _ = kept.keep("event7", panel: panel(), seconds: 60, now: 100)
        let changed = kept.take(for: panel(shape: shape(slots: 5)))
        #expect(changed.fitting == nil)
        #expect(changed.stale.map(\.clone) == ["event7"])
        #expect(changed.stale.first?.fit == .otherShape("10 slots, now 5"))
        #expect(kept.isEmpty, "its panel is back, as another: it will never be taken")
    }

    @Test func itsPanelBackWithoutPassthroughRemovesIt() {
        var kept = KeptClones<String>()
        _ = kept.keep("event7", panel: panel(), seconds: 60, now: 100)
        _ = kept.keep("event8", panel: panel(info(name: "B")), seconds: 60, now: 100)
        #expect(kept.take(identity: panel().identity) == ["event7"])
        #expect(kept.kept.map(\.clone) == ["event8"])
    }

    @Test func aBoundedNumberWaitTheOldestGoingFirst() {
        var kept = KeptClones<String>()
        var removed: [String] = []
        for i in 0..<(KeptClones<String>.capacity + 3) {
            removed += kept.keep("clone\(i)", panel: panel(info(name: "panel \(i)")), seconds: 60, now: Double(i))
        }
        #expect(kept.kept.count == KeptClones<String>.capacity)
        #expect(removed == ["clone0", "clone1", "clone2"])
    }

    @Test func aPanelGoingAgainReplacesWhatWaitedForIt() {
        var kept = KeptClones<String>()
        _ = kept.keep("event7", panel: panel(), seconds: 60, now: 100)
        #expect(kept.keep("event9", panel: panel(), seconds: 60, now: 110) == ["event7"])
        #expect(kept.kept.map(\.clone) == ["event9"])
        #expect(kept.deadline == 170)
    }
}
