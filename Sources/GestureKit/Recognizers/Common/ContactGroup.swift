/// The contacts of one touch sequence as a group: where each began, where it is, and the
/// group's motion as translation, scale and rotation accumulated frame by frame.
///
/// Why frame by frame: fingers land and lift at different times, and a centroid or spread
/// computed over a changing set of fingers jumps. Each frame's change is measured only over
/// the contacts present in both this frame and the previous one, then accumulated, so adding
/// or removing a finger never moves the gesture.
///
/// Fixed-capacity storage (reserved once, cleared with keepingCapacity): no allocation per frame.
public struct ContactGroup {
    /// Every contact seen since `removeAll`, in order of arrival.
    public private(set) var ids: [Int32] = []
    public private(set) var startMM: [Point] = []
    public private(set) var startPosition: [Point] = []
    public private(set) var startTime: [Double] = []
    public private(set) var lastMM: [Point] = []
    public private(set) var lastPosition: [Point] = []
    public private(set) var isDown: [Bool] = []

    /// Contacts down after the latest frame, and the most ever down at once.
    public private(set) var downCount = 0
    public private(set) var maxDownCount = 0
    /// Largest distance any contact has moved from where it began, mm.
    public private(set) var maxDisplacementMM = 0.0
    /// Time of the first contact's arrival and of the latest frame.
    public private(set) var firstTime = 0.0
    public private(set) var lastTime = 0.0
    /// A contact arrived after some contact had already lifted.
    public private(set) var landedAfterLift = false
    public private(set) var anyLifted = false

    /// Accumulated motion since the first contact: centroid translation (mm and normalized),
    /// scale of the mean distance to the centroid, rotation in radians (clockwise on screen > 0).
    public private(set) var translationMM = Point.zero
    public private(set) var translationPosition = Point.zero
    public private(set) var scale = 1.0
    public private(set) var rotation = 0.0
    /// Length of the path travelled by the centroid, mm (swipes use it for straightness).
    public private(set) var pathLengthMM = 0.0
    /// Centroid and mean distance to it, over the contacts present in the latest frame.
    public private(set) var centroidMM = Point.zero
    public private(set) var centroidPosition = Point.zero
    public private(set) var spreadMM = 0.0
    /// Centroid of the first frame's contacts: the gesture's start.
    public private(set) var startCentroidMM = Point.zero
    public private(set) var startCentroidPosition = Point.zero
    /// The latest frame changed the group's geometry (a contact moved, landed or lifted).
    public private(set) var changedInLastFrame = false

    // The previous frame's contacts that are still down, for the frame-to-frame deltas.
    private var previousIDs: [Int32] = []
    private var previousMM: [Point] = []
    private var previousPosition: [Point] = []
    private var nextIDs: [Int32] = []
    private var nextMM: [Point] = []
    private var nextPosition: [Point] = []

    public init(capacity: Int = 16) {
        ids.reserveCapacity(capacity)
        startMM.reserveCapacity(capacity)
        startPosition.reserveCapacity(capacity)
        startTime.reserveCapacity(capacity)
        lastMM.reserveCapacity(capacity)
        lastPosition.reserveCapacity(capacity)
        isDown.reserveCapacity(capacity)
        previousIDs.reserveCapacity(capacity)
        previousMM.reserveCapacity(capacity)
        previousPosition.reserveCapacity(capacity)
        nextIDs.reserveCapacity(capacity)
        nextMM.reserveCapacity(capacity)
        nextPosition.reserveCapacity(capacity)
    }

    public var isEmpty: Bool { ids.isEmpty }
    public var duration: Double { lastTime - firstTime }

    public mutating func removeAll() {
        ids.removeAll(keepingCapacity: true)
        startMM.removeAll(keepingCapacity: true)
        startPosition.removeAll(keepingCapacity: true)
        startTime.removeAll(keepingCapacity: true)
        lastMM.removeAll(keepingCapacity: true)
        lastPosition.removeAll(keepingCapacity: true)
        isDown.removeAll(keepingCapacity: true)
        previousIDs.removeAll(keepingCapacity: true)
        previousMM.removeAll(keepingCapacity: true)
        previousPosition.removeAll(keepingCapacity: true)
        downCount = 0
        maxDownCount = 0
        maxDisplacementMM = 0
        firstTime = 0
        lastTime = 0
        landedAfterLift = false
        anyLifted = false
        translationMM = .zero
        translationPosition = .zero
        scale = 1
        rotation = 0
        pathLengthMM = 0
        centroidMM = .zero
        centroidPosition = .zero
        spreadMM = 0
        startCentroidMM = .zero
        startCentroidPosition = .zero
        changedInLastFrame = false
    }

    /// Mean start position (mm and normalized) of the contacts seen.
    public var meanStart: (mm: Point, position: Point) {
        guard !ids.isEmpty else { return (.zero, .zero) }
        var a = Point.zero, b = Point.zero
        for i in ids.indices { a += startMM[i]; b += startPosition[i] }
        let n = Double(ids.count)
        return (a / n, b / n)
    }

    /// Takes in one frame. Cancelled contacts are treated as lifted here; the arena cancels
    /// the gestures they belong to.
    public mutating func update(_ frame: TouchFrame) {
        let firstFrame = ids.isEmpty
        if firstFrame { firstTime = frame.time }
        lastTime = frame.time
        changedInLastFrame = false

        // Per-contact bookkeeping.
        for c in frame.contacts {
            var index = -1
            for i in ids.indices where ids[i] == c.id { index = i; break }
            if index < 0 {
                guard c.phase != .ended, c.phase != .cancelled else { continue }
                if anyLifted { landedAfterLift = true }
                ids.append(c.id)
                startMM.append(c.mm)
                startPosition.append(c.position)
                startTime.append(frame.time)
                lastMM.append(c.mm)
                lastPosition.append(c.position)
                isDown.append(true)
                changedInLastFrame = true
                continue
            }
            if lastMM[index] != c.mm { changedInLastFrame = true }
            lastMM[index] = c.mm
            lastPosition[index] = c.position
            let moved = c.mm.distance(to: startMM[index])
            if moved > maxDisplacementMM { maxDisplacementMM = moved }
            if !c.phase.isDown, isDown[index] {
                isDown[index] = false
                anyLifted = true
                changedInLastFrame = true
            }
        }
        var down = 0
        for d in isDown where d { down += 1 }
        downCount = down
        if down > maxDownCount { maxDownCount = down }

        // Group geometry over the contacts present in this frame (down, or lifting now).
        var cm = Point.zero, cp = Point.zero, n = 0.0
        for c in frame.contacts where c.phase != .cancelled {
            cm += c.mm; cp += c.position; n += 1
        }
        if n > 0 {
            centroidMM = cm / n
            centroidPosition = cp / n
            var s = 0.0
            for c in frame.contacts where c.phase != .cancelled { s += c.mm.distance(to: centroidMM) }
            spreadMM = s / n
        }
        if firstFrame {
            startCentroidMM = centroidMM
            startCentroidPosition = centroidPosition
        }

        accumulateMotion(frame)
    }

    /// Adds this frame's motion, measured over the contacts common to this frame and the last.
    private mutating func accumulateMotion(_ frame: TouchFrame) {
        var oldC = Point.zero, newC = Point.zero, oldP = Point.zero, newP = Point.zero
        var common = 0.0
        for c in frame.contacts where c.phase != .cancelled {
            for j in previousIDs.indices where previousIDs[j] == c.id {
                oldC += previousMM[j]; newC += c.mm
                oldP += previousPosition[j]; newP += c.position
                common += 1
                break
            }
        }
        if common > 0 {
            oldC = oldC / common; newC = newC / common
            let step = newC - oldC
            translationMM += step
            translationPosition += (newP - oldP) / common
            pathLengthMM += step.length
            if common >= 2 {
                var oldSpread = 0.0, newSpread = 0.0, turn = 0.0, weight = 0.0
                for c in frame.contacts where c.phase != .cancelled {
                    for j in previousIDs.indices where previousIDs[j] == c.id {
                        let u = previousMM[j] - oldC
                        let v = c.mm - newC
                        let r = u.length
                        oldSpread += r
                        newSpread += v.length
                        if r > 1e-9, v.length > 1e-9 {
                            turn += Angle.between(u, v) * r
                            weight += r
                        }
                        break
                    }
                }
                if oldSpread > 1e-9, newSpread > 1e-9 { scale *= newSpread / oldSpread }
                if weight > 0 { rotation += turn / weight }
            }
        }

        nextIDs.removeAll(keepingCapacity: true)
        nextMM.removeAll(keepingCapacity: true)
        nextPosition.removeAll(keepingCapacity: true)
        for c in frame.contacts where c.phase.isDown {
            nextIDs.append(c.id); nextMM.append(c.mm); nextPosition.append(c.position)
        }
        swap(&previousIDs, &nextIDs)
        swap(&previousMM, &nextMM)
        swap(&previousPosition, &nextPosition)
    }
}
