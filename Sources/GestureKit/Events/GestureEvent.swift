/// The gestures gestured knows. The raw value is the name used in config and JSON.
public enum GestureKind: String, Sendable, CaseIterable {
    case circle
    case checkmark
    case tickle
    /// A shape an operator taught by example (ShapeRecognizer).
    case shape
    case pan
    case pinch
    case rotate
    case tap
    case swipe
    case edgeSwipe = "edge_swipe"
    case longPress = "long_press"

    /// Continuous gestures go began → changed… → ended/cancelled; discrete ones are `recognized` once.
    public var isContinuous: Bool {
        switch self {
        case .pan, .pinch, .rotate, .longPress: true
        case .circle, .checkmark, .tickle, .shape, .tap, .swipe, .edgeSwipe: false
        }
    }
}

/// Where a gesture is in its life, as reported to clients.
public enum GesturePhase: String, Sendable, CaseIterable {
    case recognized
    case began
    case changed
    case ended
    case cancelled
}

/// Direction words, in screen terms (after rotation; y grows downwards).
public enum Direction: String, Sendable, CaseIterable {
    case clockwise
    case counterclockwise
    case up
    case down
    case left
    case right
    case upLeft = "up-left"
    case upRight = "up-right"
    case downLeft = "down-left"
    case downRight = "down-right"
}

/// A screen edge or corner, for edge swipes.
public enum Edge: String, Sendable, CaseIterable {
    case top
    case bottom
    case left
    case right
    case topLeft = "top-left"
    case topRight = "top-right"
    case bottomLeft = "bottom-left"
    case bottomRight = "bottom-right"
}

/// A named rectangle in normalized screen coordinates (the config's `[[region]]`).
public struct Region: Sendable, Equatable {
    /// The name, interned once here: the events placed in the region carry it as it is.
    public var internedName: InternedName
    public var rect: Rect

    public init(name: String, rect: Rect) {
        internedName = InternedName(name)
        self.rect = rect
    }

    public var name: String {
        get { internedName.string }
        set { internedName = InternedName(newValue) }
    }
}

/// One gesture, as recognized on one device. The device's identity is added where the event
/// leaves the core (JSON encoding, bindings); everything here is plain values.
///
/// Common fields first; the rest are set only by the gestures they belong to and are `nil`
/// otherwise (the JSON encoder leaves them out). Plain bytes, names included (InternedName): an
/// event is copied and destroyed as such, with no retain or release.
public struct GestureEvent: Sendable {
    public var kind: GestureKind
    public var phase: GesturePhase
    /// Seconds, from the kernel's timestamp of the frame that produced the event.
    public var time: Double
    public var fingers: Int
    /// Centre of the gesture: normalized screen coordinates and millimetres on the device.
    public var center: Point
    public var centerMM: Point
    /// The configured region the gesture is in (circle: the region it encloses).
    public var regionName: InternedName?

    // Shape gestures (circle, checkmark, tickle).
    public var radiusMM: Double?
    public var fitError: Double?
    public var direction: Direction?
    public var turns: Double?
    /// Tickle: number of direction reversals.
    public var reversals: Int?
    /// Taught shape: its name, and how well the stroke matched (0…1).
    public var shapeName: InternedName?
    public var score: Double?

    // Continuous gestures and swipes.
    /// Pan: translation since began, millimetres.
    public var translationMM: Point?
    /// Pan, swipe: velocity in mm/s.
    public var velocityMM: Point?
    /// Pan on `ended`: where the content would come to rest if flung (normalized and mm).
    public var restingPoint: Point?
    public var restingPointMM: Point?
    /// Pinch: scale relative to began (1 = unchanged).
    public var scale: Double?
    /// Rotate: radians since began, positive clockwise on screen.
    public var rotation: Double?
    /// Swipe: distance travelled (mm) and mean speed (mm/s).
    public var distanceMM: Double?
    public var speedMM: Double?
    /// Edge swipe: the edge it started from.
    public var edge: Edge?
    /// Tap: 1 for a single tap, 2 for a double tap, …
    public var tapCount: Int?
    /// Long press, swipe: seconds since the gesture started.
    public var duration: Double?

    public init(
        kind: GestureKind, phase: GesturePhase, time: Double, fingers: Int,
        center: Point, centerMM: Point, regionName: InternedName?
    ) {
        self.kind = kind
        self.phase = phase
        self.time = time
        self.fingers = fingers
        self.center = center
        self.centerMM = centerMM
        self.regionName = regionName
    }

    public init(
        kind: GestureKind, phase: GesturePhase, time: Double, fingers: Int,
        center: Point, centerMM: Point, region: String? = nil
    ) {
        self.init(kind: kind, phase: phase, time: time, fingers: fingers, center: center, centerMM: centerMM,
                  regionName: region.map(InternedName.init))
    }

    /// The region's name (`regionName`); setting it interns the name.
    public var region: String? {
        get { regionName?.string }
        set { regionName = newValue.map(InternedName.init) }
    }

    /// The taught shape's name (`shapeName`); setting it interns the name.
    public var shape: String? {
        get { shapeName?.string }
        set { shapeName = newValue.map(InternedName.init) }
    }
}
