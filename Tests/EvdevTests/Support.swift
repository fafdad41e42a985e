import Evdev
import GestureKit

/// Fixtures live in Tests/Fixtures, found from this file's path (no bundle resources).
enum Fixture {
    static let root: String = {
        let here = #filePath
        guard let r = here.firstRange(of: "/Tests/EvdevTests/") else { return "Tests/Fixtures" }
        return String(here[..<r.lowerBound]) + "/Tests/Fixtures"
    }()

    static func recording(_ relative: String) -> String { root + "/recordings/" + relative }
}

/// A contact as copied out of a frame (frames must not be kept).
struct SeenContact: Equatable {
    var id: Int32
    var slot: Int32
    var phase: ContactPhase
    var tool: ToolType
    var mm: Point
    var position: Point
}

struct SeenFrame {
    var time: Double
    var contacts: [SeenContact]

    func phases(_ p: ContactPhase) -> [Int32] { contacts.filter { $0.phase == p }.map(\.id) }
}

func copy(_ frame: borrowing TouchFrame) -> SeenFrame {
    SeenFrame(time: frame.time, contacts: frame.contacts.map {
        SeenContact(id: $0.id, slot: $0.slot, phase: $0.phase, tool: $0.tool, mm: $0.mm, position: $0.position)
    })
}

/// Runs every event of a recording through a tracker and keeps copies of the frames.
func frames(of recording: Recording, transform: CoordinateTransform = .identity) -> [SeenFrame] {
    var tracker = ContactTracker(info: recording.info, transform: transform)
    var out: [SeenFrame] = []
    for e in recording.events { tracker.feed(e) { out.append(copy($0)) } }
    return out
}

/// Life of every contact over a run: how often each id began, ended, was cancelled.
struct ContactLedger {
    var began: [Int32: Int] = [:]
    var ended: [Int32: Int] = [:]
    var cancelled: [Int32: Int] = [:]
    var maxDown = 0
    /// Ids seen in any phase other than began before they began (must stay empty).
    var unannounced: Set<Int32> = []

    init(_ frames: [SeenFrame]) {
        for f in frames {
            var down = 0
            for c in f.contacts {
                switch c.phase {
                case .began: began[c.id, default: 0] += 1
                case .ended: ended[c.id, default: 0] += 1
                case .cancelled: cancelled[c.id, default: 0] += 1
                case .moved, .stationary: break
                }
                if c.phase != .began && began[c.id] == nil { unannounced.insert(c.id) }
                if c.phase.isDown { down += 1 }
            }
            maxDown = max(maxDown, down)
        }
    }

    /// Every contact began exactly once and ended (or was cancelled) exactly once.
    var paired: Bool {
        began.values.allSatisfy { $0 == 1 } && unannounced.isEmpty
            && Set(began.keys) == Set(ended.keys).union(cancelled.keys)
            && ended.values.allSatisfy { $0 == 1 } && cancelled.values.allSatisfy { $0 == 1 }
            && Set(ended.keys).isDisjoint(with: cancelled.keys)
    }
}

func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-6) -> Bool { abs(a - b) <= tolerance }

/// A protocol B touchscreen description, for synthetic event streams.
func syntheticTouchscreen(slots: Int32 = 10, width: Int32 = 1000, height: Int32 = 500, resolution: Int32 = 10,
                          palm: Bool = false) -> DeviceInfo {
    var axes: [UInt16: AxisInfo] = [
        ABS.X: AxisInfo(minimum: 0, maximum: width, resolution: resolution),
        ABS.Y: AxisInfo(minimum: 0, maximum: height, resolution: resolution),
        ABS.MT_SLOT: AxisInfo(minimum: 0, maximum: slots - 1),
        ABS.MT_POSITION_X: AxisInfo(minimum: 0, maximum: width, resolution: resolution),
        ABS.MT_POSITION_Y: AxisInfo(minimum: 0, maximum: height, resolution: resolution),
        ABS.MT_TRACKING_ID: AxisInfo(minimum: 0, maximum: 65535),
    ]
    if palm { axes[ABS.MT_TOOL_TYPE] = AxisInfo(minimum: 0, maximum: 2) }
    let caps = DeviceCapabilities(eventTypes: [EV.SYN, EV.KEY, EV.ABS], keys: [BTN.TOUCH], axes: axes,
                                  properties: [InputProp.DIRECT])
    return DeviceInfo(name: "synthetic touchscreen", id: "synthetic", bus: 0x06, vendor: 1, product: 2, version: 1,
                      capabilities: caps)
}

/// Builds protocol B event streams: `slot(0, id: 5, x: 10, y: 20)`, `lift(0)`, `syn()`.
struct EventScript {
    var time = 100.0
    var events: [InputEvent] = []

    mutating func abs(_ code: UInt16, _ value: Int32) { events.append(InputEvent(time: time, type: EV.ABS, code: code, value: value)) }
    mutating func slot(_ s: Int32, id: Int32? = nil, x: Int32? = nil, y: Int32? = nil) {
        abs(ABS.MT_SLOT, s)
        if let id { abs(ABS.MT_TRACKING_ID, id) }
        if let x { abs(ABS.MT_POSITION_X, x) }
        if let y { abs(ABS.MT_POSITION_Y, y) }
    }
    mutating func lift(_ s: Int32) { slot(s, id: -1) }
    mutating func syn(advance: Double = 0.01) {
        events.append(InputEvent(time: time, type: EV.SYN, code: SYN.REPORT, value: 0))
        time += advance
    }
    mutating func take() -> [InputEvent] { defer { events = [] }; return events }
}

/// A pipeline's stage and gate that hear everything and do nothing: a test's stage overrides what
/// it watches. (`firstTouch` answers false: the app gets every sequence.)
class TestStage: TouchGate, FrameStage {
    func record(_ e: InputEvent) {}
    func judgedBeforeArena(_ frame: borrowing TouchFrame) -> Bool { false }
    func arenaJudged(_ arena: GestureArena) {}
    func judged(_ frame: borrowing TouchFrame, arena: GestureArena) {}
    func withholdSequence() {}
    func frameEnded(_ report: InputEvent) {}
    func dropped() {}
    func resynchronized() {}

    /// Hooks this to `pipeline` as its stage and its gate.
    func hook(to pipeline: DevicePipeline) {
        pipeline.stage = self
        pipeline.gate = Borrowed(self)
    }
}
