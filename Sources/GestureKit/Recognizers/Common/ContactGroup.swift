/// The contacts of one touch sequence as a group: where each began, where it is, and the
/// group's motion as translation, scale and rotation accumulated frame by frame.
///
/// Why frame by frame: fingers land and lift at different times, and a centroid or spread
/// computed over a changing set of fingers jumps. Each frame's change is measured only over
/// the contacts present in both this frame and the previous one, then accumulated, so adding
/// or removing a finger never moves the gesture.
///
/// Pan, swipe, pinch, rotate, tap, long press and edge swipe each update a group on every frame,
/// so it is kept lean: one array of members (reserved once, cleared keeping its capacity: no
/// allocation per frame), one pass over the frame's contacts, and no square root that nobody
/// reads (the spread and the largest displacement are computed when asked).
public struct ContactGroup {
    /// What the group knows of one contact seen since `removeAll`.
    private struct Member {
        var id: Int32
        var startMM: Point
        var startPosition: Point
        /// Where it was in the latest frame that had it and did not cancel it.
        var lastMM: Point
        var lastPosition: Point
        /// Where it was in the frame before the latest, if it was down then (for rotation and scale).
        var previousMM = Point.zero
        var isDown = true
        /// Numbers of the latest frames in which it was down; present and not cancelled; and
        /// common to that frame and the one before.
        var downInFrame = 0
        var countedInFrame = 0
        var commonInFrame = 0
        /// The latest round of reports (see `accumulateMotion`) in which it moved.
        var movedInRound = 0
    }

    /// Every contact seen since `removeAll`, in order of arrival.
    private var members: [Member] = []
    /// Frames taken in since `removeAll`; members note the frames they were seen in.
    private var frameNumber = 0
    /// The latest frame with a contact not cancelled: the one the centroid is from.
    private var centroidFrame = 0
    private var maxDisplacementSquared = 0.0
    /// Turn and scale measured since the current round of reports began, not yet in `rotation`
    /// and `scale`; the round's number and its frames so far.
    private var roundRotation = 0.0
    private var roundScale = 1.0
    private var round = 1
    private var roundFrames = 0

    /// Contacts down after the latest frame, and the most ever down at once.
    public private(set) var downCount = 0
    public private(set) var maxDownCount = 0
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
    /// Centroid over the contacts present in the latest frame (down, or lifting now).
    public private(set) var centroidMM = Point.zero
    public private(set) var centroidPosition = Point.zero
    /// Centroid of the first frame's contacts: the gesture's start.
    public private(set) var startCentroidMM = Point.zero
    public private(set) var startCentroidPosition = Point.zero
    /// The latest frame changed the group's geometry (a contact moved, landed or lifted).
    public private(set) var changedInLastFrame = false

    public init(capacity: Int = 16) {
        members.reserveCapacity(capacity)
    }

    public var isEmpty: Bool { members.isEmpty }
    public var duration: Double { lastTime - firstTime }

    /// Largest distance any contact has moved from where it began, mm.
    public var maxDisplacementMM: Double { maxDisplacementSquared.squareRoot() }

    /// Mean distance to the centroid of the contacts it was computed over, mm.
    public var spreadMM: Double {
        var s = 0.0, n = 0.0
        for m in members where m.countedInFrame == centroidFrame && centroidFrame > 0 {
            s += m.lastMM.distance(to: centroidMM)
            n += 1
        }
        return n > 0 ? s / n : 0
    }

    /// Mean start position (mm and normalized) of the contacts seen.
    public var meanStart: (mm: Point, position: Point) {
        guard !members.isEmpty else { return (.zero, .zero) }
        var a = Point.zero, b = Point.zero
        for m in members { a += m.startMM; b += m.startPosition }
        let n = Double(members.count)
        return (a / n, b / n)
    }

    public mutating func removeAll() {
        members.removeAll(keepingCapacity: true)
        frameNumber = 0
        centroidFrame = 0
        maxDisplacementSquared = 0
        roundRotation = 0
        roundScale = 1
        round = 1
        roundFrames = 0
        downCount = 0
        maxDownCount = 0
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
        startCentroidMM = .zero
        startCentroidPosition = .zero
        changedInLastFrame = false
    }

    private func index(of id: Int32) -> Int? {
        var i = 0
        while i < members.count {
            if members[i].id == id { return i }
            i += 1
        }
        return nil
    }

    /// Takes in one frame. Cancelled contacts are treated as lifted here; the arena cancels
    /// the gestures they belong to.
    public mutating func update(_ frame: TouchFrame) {
        let firstFrame = members.isEmpty
        if firstFrame { firstTime = frame.time }
        lastTime = frame.time
        changedInLastFrame = false
        frameNumber += 1
        let now = frameNumber

        // One pass: bookkeeping, the centroid's sums, and the sums over the contacts common to
        // this frame and the previous one (down in both, or down then and lifting now).
        var cm = Point.zero, cp = Point.zero, n = 0.0
        var oldC = Point.zero, newC = Point.zero, oldP = Point.zero, newP = Point.zero
        var common = 0.0
        for c in frame.contacts {
            let counted = c.phase != .cancelled
            if counted { cm += c.mm; cp += c.position; n += 1 }
            guard let i = index(of: c.id) else {
                guard c.phase != .ended, c.phase != .cancelled else { continue }
                if anyLifted { landedAfterLift = true }
                members.append(Member(id: c.id, startMM: c.mm, startPosition: c.position,
                                      lastMM: c.mm, lastPosition: c.position,
                                      downInFrame: now, countedInFrame: now))
                changedInLastFrame = true
                continue
            }
            let m = members[i]
            if m.lastMM != c.mm { changedInLastFrame = true }
            let d = c.mm - m.startMM
            let moved = d.x * d.x + d.y * d.y
            if moved > maxDisplacementSquared { maxDisplacementSquared = moved }
            if counted && m.downInFrame == now - 1 {
                oldC += m.lastMM; newC += c.mm
                oldP += m.lastPosition; newP += c.position
                common += 1
                members[i].previousMM = m.lastMM
                members[i].commonInFrame = now
            }
            if counted {
                members[i].lastMM = c.mm
                members[i].lastPosition = c.position
                members[i].countedInFrame = now
            }
            if c.phase.isDown {
                members[i].downInFrame = now
            } else if m.isDown {
                members[i].isDown = false
                anyLifted = true
                changedInLastFrame = true
            }
        }
        var down = 0
        for m in members where m.isDown { down += 1 }
        downCount = down
        if down > maxDownCount { maxDownCount = down }

        if n > 0 {
            centroidMM = cm / n
            centroidPosition = cp / n
            centroidFrame = now
        }
        if firstFrame {
            startCentroidMM = centroidMM
            startCentroidPosition = centroidPosition
        }
        if common > 0 { accumulateMotion(frame, oldC: oldC / common, newC: newC / common, step: (newP - oldP) / common, common: common) }
    }

    /// Adds this frame's motion, measured over the contacts common to this frame and the last
    /// (`oldC` and `newC`: their centroid then and now).
    ///
    /// Rotation is the angle of the least-squares similarity that maps the contacts' offsets from
    /// the centroid then (u) onto their offsets now (v) — Umeyama, "Least-squares estimation of
    /// transformation parameters between two point patterns", 1991:
    ///     turn = atan2(Σ u×v, Σ u·v)
    /// Each contact counts by |u|²: one near the centroid, where a few millimetres is a large
    /// angle, carries little. That keeps three fingers in a row a translation on panels that
    /// report one contact per frame (the fingers move in turn, the others where they last
    /// reported): the fit of one finger's step against the others' cancels to second order
    /// over a round of reports, where a mean of per-contact angles did not.
    /// Scale is the ratio of mean distances to the centroid, which telescopes: over frames with
    /// the same contacts it is exactly the spread now over the spread then, however the fingers
    /// took turns (the fit's own scale |(a, b)| drifts by (step/spread)² per round).
    private mutating func accumulateMotion(_ frame: TouchFrame, oldC: Point, newC: Point, step stepPosition: Point, common: Double) {
        let step = newC - oldC
        translationMM += step
        translationPosition += stepPosition
        pathLengthMM += step.length
        guard common >= 2 else { return commitRound() }
        let now = frameNumber
        var dot = 0.0, cross = 0.0, norm = 0.0, oldSpread = 0.0, newSpread = 0.0
        var allMoved = true
        for c in frame.contacts where c.phase != .cancelled {
            guard let i = index(of: c.id), members[i].commonInFrame == now else { continue }
            let u = members[i].previousMM - oldC
            let v = c.mm - newC
            dot += u.dot(v)
            cross += u.cross(v)
            norm += u.dot(u)
            oldSpread += u.length
            newSpread += v.length
            if c.mm != members[i].previousMM || c.phase == .ended { members[i].movedInRound = round }
            if members[i].movedInRound != round { allMoved = false }
        }
        roundFrames += 1
        if norm > 1e-12 { roundRotation += Angle.atan2(cross / norm, dot / norm) }
        if oldSpread > 1e-9, newSpread > 1e-9 { roundScale *= newSpread / oldSpread }
        // A round ends when every contact has moved since it began, or after as many frames as
        // contacts (one may be still: a pivoting thumb). With every contact in every frame that
        // is each frame; with one contact per report, each finger's step is fitted against the
        // others' stale positions, and the round's sum is the hand's motion to second order.
        if allMoved || roundFrames >= Int(common) { commitRound() }
    }

    private mutating func commitRound() {
        scale *= roundScale
        rotation += roundRotation
        roundScale = 1
        roundRotation = 0
        roundFrames = 0
        round += 1
    }
}
