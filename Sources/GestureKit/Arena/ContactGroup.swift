/// The contacts of one touch sequence as a group: where each began, where it is, and the
/// group's motion as translation, scale and rotation since the first contact.
///
/// Translation accumulates frame by frame: each frame's change is measured over the contacts
/// present in both this frame and the previous one, so adding or removing a finger never moves
/// the gesture, and over frames with the same contacts the sum telescopes to the mean
/// displacement of the group however the contacts took turns to report.
///
/// Rotation and scale are measured over segments: stretches where the set of contacts down is
/// unchanged. Within one, they are the fit between the contacts' places at the segment's
/// anchor and at its latest sample (below); when a contact lands or lifts, the segment's turn
/// and scale are committed and a new segment begins. Measured this way the error does not
/// accumulate (a per-frame fit summed over a swipe walks like a random walk), and three fingers
/// moving in a row give no rotation at all.
///
/// Samples are taken per round of reports: a round ends when a contact reports (lands, moves or
/// lifts) a second time. A sample is taken once every contact of the segment has reported in the
/// round, or at the round's end with the others where they last were (they are still). Panels
/// that send one contact per HID report make the kernel deliver each finger's update in a frame
/// of its own, a scan's contacts in a fixed order: rounds then run from a scan's first report to
/// its last, whatever contacts land or lift, and a sample holds the positions of one scan, so a
/// hand translated across the screen is never seen half moved.
///
/// Pan, swipe, tap, long press and edge swipe read one group of the sequence (FrameContext),
/// pinch and rotate one each once a second finger lands; they are updated on every frame, so a
/// group is kept lean: one array of members (reserved once, cleared keeping its capacity: no
/// allocation per frame), one pass over the frame's contacts, and no square root that nobody
/// reads (the largest displacement is computed when asked).
public struct ContactGroup {
    /// What the group knows of one contact seen since `removeAll`.
    private struct Member {
        var id: Int32
        var startMM: Point
        var startPosition: Point
        /// Where it was in the latest frame that had it and did not cancel it.
        var lastMM: Point
        var lastPosition: Point
        var isDown = true
        /// Number of the latest frame in which it was down.
        var downInFrame = 0
        /// The latest round in which it reported (landed, moved or lifted).
        var reportedInRound = 0
        /// Part of the current segment, and its place at the segment's anchor and latest sample.
        var inSegment = false
        var anchorMM = Point.zero
        var sampleMM = Point.zero
    }

    /// Every contact seen since `removeAll`, in order of arrival.
    private var members: [Member] = []
    /// While `loneHeld`, the only member as it is (`members[0]` is as it was when `lone` took
    /// it): a one-finger stroke's frames update it here (`moveLone`), any other frame puts it
    /// back first.
    private var lone = Member(id: 0, startMM: .zero, startPosition: .zero, lastMM: .zero, lastPosition: .zero)
    private var loneHeld = false
    /// Frames taken in since `removeAll`; members note the frames they were seen in.
    private var frameNumber = 0
    private var maxDisplacementSquared = 0.0

    /// The round of reports and the latest round the segment was sampled in.
    private var round = 1
    private var sampledRound = 0
    /// The current segment: its contacts, whether its anchor (first sample) is taken, the
    /// anchor's centroid and mean distance to it; the turn (unwrapped) and scale from the anchor
    /// to the latest sample; rotation and scale of the segments before.
    private var segmentCount = 0
    private var anchored = false
    private var anchorCentroidMM = Point.zero
    private var anchorSpreadMM = 0.0
    private var segmentRotation = 0.0
    private var segmentScale = 1.0
    private var committedRotation = 0.0
    private var committedScale = 1.0

    /// Contacts down after the latest frame, and the most ever down at once.
    public private(set) var downCount = 0
    public private(set) var maxDownCount = 0
    /// Time of the first contact's arrival and of the latest frame.
    public private(set) var firstTime = 0.0
    public private(set) var lastTime = 0.0
    /// A contact arrived after some contact had already lifted.
    public private(set) var landedAfterLift = false
    public private(set) var anyLifted = false

    /// Motion since the first contact: centroid translation (mm and normalized), scale of the
    /// mean distance to the centroid, rotation in radians (clockwise on screen > 0, unwrapped).
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
    /// Mean distance of the contacts to their centroid at the latest sample of two or more
    /// contacts, mm (the spread `scale` is measured on).
    public private(set) var spreadMM = 0.0

    public init(capacity: Int = 16) {
        members.reserveCapacity(capacity)
    }

    public var isEmpty: Bool { members.isEmpty }
    /// Frames taken in since `removeAll` (1 while the first frame is handled).
    public var frameCount: Int { frameNumber }
    public var duration: Double { lastTime - firstTime }

    /// Largest distance any contact has moved from where it began, mm.
    public var maxDisplacementMM: Double { maxDisplacementSquared.squareRoot() }

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
        loneHeld = false
        frameNumber = 0
        maxDisplacementSquared = 0
        round = 1
        sampledRound = 0
        segmentCount = 0
        anchored = false
        anchorCentroidMM = .zero
        anchorSpreadMM = 0
        segmentRotation = 0
        segmentScale = 1
        committedRotation = 0
        committedScale = 1
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
        spreadMM = 0
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
        if frame.contacts.count == 1 && members.count == 1 && movesLone(frame.contacts[0]) {
            moveLone(frame.contacts[0], at: frame.time)
            return
        }
        takeAll(frame)
    }

    /// `update` for any frame. Not inlined: its prologue (the registers and stack of the pass
    /// below) was paid by a one-finger frame before `movesLone` was tried (speed:
    /// docs/architecture.md).
    @inline(never)
    private mutating func takeAll(_ frame: TouchFrame) {
        if loneHeld {
            members[0] = lone
            loneHeld = false
        }
        let firstFrame = members.isEmpty
        if firstFrame { firstTime = frame.time }
        lastTime = frame.time
        changedInLastFrame = false
        frameNumber += 1
        let now = frameNumber
        var landedOrLifted = false

        // One pass: bookkeeping, the centroid's sums, and the sums over the contacts common to
        // this frame and the previous one (down in both, or down then and lifting now).
        var sums = FrameSums()
        var down = downCount
        for c in frame.contacts {
            let counted = c.phase != .cancelled
            if counted { sums.cm += c.mm; sums.cp += c.position; sums.n += 1 }
            guard let i = index(of: c.id) else {
                guard c.phase != .ended, c.phase != .cancelled else { continue }
                admit(c, now: now)
                down += 1
                changedInLastFrame = true
                landedOrLifted = true
                continue
            }
            // Read in place, then written in one pass (`write`).
            let lastMM = members[i].lastMM
            if lastMM != c.mm { changedInLastFrame = true }
            let d = c.mm - members[i].startMM
            let moved = d.x * d.x + d.y * d.y
            if moved > maxDisplacementSquared { maxDisplacementSquared = moved }
            if counted && members[i].downInFrame == now - 1 {
                sums.oldC += lastMM; sums.newC += c.mm
                sums.oldP += members[i].lastPosition; sums.newP += c.position
                sums.common += 1
            }
            let reports = counted && (c.phase != .stationary || lastMM != c.mm)
            if reports && members[i].reportedInRound == round { nextRound() }
            if write(c, to: i, now: now, counted: counted, reports: reports) {
                down -= 1
                anyLifted = true
                changedInLastFrame = true
                landedOrLifted = true
            }
        }
        downCount = down
        if down > maxDownCount { maxDownCount = down }

        move(by: sums, firstFrame: firstFrame)
        sampleIfAllReported()
        if landedOrLifted {
            beginSegment()
            sampleIfAllReported()
        }
    }

    /// The sums of one pass over a frame (`takeAll`): the centroid's, and those over the contacts
    /// common to this frame and the previous one.
    private struct FrameSums {
        var cm = Point.zero, cp = Point.zero, n = 0.0
        var oldC = Point.zero, newC = Point.zero, oldP = Point.zero, newP = Point.zero
        var common = 0.0
    }

    /// The centroid, its start and the translation follow a frame's sums (`takeAll`).
    @inline(__always)
    private mutating func move(by sums: FrameSums, firstFrame: Bool) {
        if sums.n > 0 {
            centroidMM = sums.cm / sums.n
            centroidPosition = sums.cp / sums.n
        }
        if firstFrame {
            startCentroidMM = centroidMM
            startCentroidPosition = centroidPosition
        }
        if sums.common > 0 {
            let step = (sums.newC - sums.oldC) / sums.common
            translationMM += step
            translationPosition += (sums.newP - sums.oldP) / sums.common
            pathLengthMM += step.length
        }
    }

    /// A contact that reports again in this round starts a new one: the one ending is sampled
    /// as it stood (this contact not yet moved).
    @inline(__always)
    private mutating func nextRound() {
        if sampledRound != round && segmentCount >= 2 { sample() }
        round += 1
    }

    /// A contact new to the group joins it (`takeAll`).
    @inline(__always)
    private mutating func admit(_ c: Contact, now: Int) {
        if anyLifted { landedAfterLift = true }
        members.append(Member(id: c.id, startMM: c.mm, startPosition: c.position,
                              lastMM: c.mm, lastPosition: c.position,
                              downInFrame: now, reportedInRound: round))
    }

    /// Member `i` takes contact `c` (`takeAll`), written in one pass over the array's storage:
    /// one uniqueness check per contact (not one per field), and no copy of the member. True
    /// when it lifted in this frame.
    @inline(__always)
    private mutating func write(_ c: Contact, to i: Int, now: Int, counted: Bool, reports: Bool) -> Bool {
        let thisRound = round
        var lifted = false
        members.withUnsafeMutableBufferPointer { ms in
            let m = ms.baseAddress! + i
            if reports { m.pointee.reportedInRound = thisRound }
            if counted {
                m.pointee.lastMM = c.mm
                m.pointee.lastPosition = c.position
            }
            if c.phase.isDown {
                m.pointee.downInFrame = now
            } else if m.pointee.isDown {
                m.pointee.isDown = false
                lifted = true
            }
        }
        return lifted
    }

    /// Whether `c`, a frame's only contact, only moves the group's only one: down in the
    /// previous frame and still down. Holds that member in `lone` from now on (see `moveLone`).
    @inline(__always)
    private mutating func movesLone(_ c: Contact) -> Bool {
        holdLone()
        return Self.moves(lone, c, previous: frameNumber)
    }

    /// The only member held in `lone` from now on (until `takeAll` puts it back, or `removeAll`).
    @inline(__always)
    private mutating func holdLone() {
        if !loneHeld {
            lone = members[0]
            loneHeld = true
        }
    }

    @inline(__always)
    private static func moves(_ m: Member, _ c: Contact, previous: Int) -> Bool {
        // (A known contact cannot have begun: down is moved or stationary.)
        m.id == c.id && (c.phase == .moved || c.phase == .stationary) && m.isDown && m.downInFrame == previous
    }

    /// The frame of a one-finger stroke: `c`, the group's only contact, down in the previous
    /// frame and still down (`movesLone`, or the arena's own test of the frame). Taken as
    /// `update` would take it, with none of what cannot change (a landing, a lift, a segment:
    /// one contact has no rotation or scale to sample), and into `lone`, a copy of the member
    /// kept in the group itself (the array's uniqueness check and write-back cost as much as the
    /// rest; speed: docs/architecture.md).
    @inline(__always)
    mutating func moveLone(_ c: Contact, at time: Double) {
        assert(members.count == 1 && Self.moves(loneHeld ? lone : members[0], c, previous: frameNumber),
               "contact group: a frame taken as its lone contact's move is not one")
        holdLone()
        let previous = frameNumber
        let now = previous &+ 1
        frameNumber = now
        lastTime = time
        let lastMM = lone.lastMM, lastPosition = lone.lastPosition
        if c.phase != .stationary || lastMM != c.mm {
            // A second report in this round ends it (nothing to sample: one contact).
            if lone.reportedInRound == round { round &+= 1 }
            lone.reportedInRound = round
        }
        lone.lastMM = c.mm
        lone.lastPosition = c.position
        lone.downInFrame = now
        changedInLastFrame = lastMM != c.mm
        let d = c.mm - lone.startMM
        let moved = d.x * d.x + d.y * d.y
        if moved > maxDisplacementSquared { maxDisplacementSquared = moved }
        // `update`'s sums over one contact: 0 + x (a -0 becomes +0), divided by 1.
        centroidMM = .zero + c.mm
        centroidPosition = .zero + c.position
        let stepMM = c.mm - lastMM
        translationMM += stepMM
        translationPosition += c.position - lastPosition
        pathLengthMM += stepMM.length
    }

    /// Commits the current segment's turn and scale (as of its latest sample) and begins a new
    /// segment with the contacts now down. Its anchor is its first sample, not this frame: with
    /// one contact per report, some of the contacts' places here may be a scan old.
    private mutating func beginSegment() {
        committedRotation = rotation
        committedScale = scale
        segmentRotation = 0
        segmentScale = 1
        anchored = false
        sampledRound = 0
        segmentCount = 0
        for i in members.indices {
            members[i].inSegment = members[i].isDown
            if members[i].isDown { segmentCount += 1 }
        }
    }

    /// Samples the segment once every contact of it has reported in this round.
    private mutating func sampleIfAllReported() {
        // (Fewer than two contacts: nothing to sample, see `sample`.)
        guard sampledRound != round, segmentCount >= 2 else { return }
        for m in members where m.inSegment && m.reportedInRound != round { return }
        sample()
    }

    /// Takes a sample of the segment: its contacts where they last reported. (Not carried on to a
    /// common time by their velocities: a scan's reports may reach the kernel tens of
    /// milliseconds apart, and their times are not when the panel sampled them.)
    private mutating func sample() {
        guard segmentCount >= 2 else { return }
        sampledRound = round
        var c = Point.zero
        for i in members.indices where members[i].inSegment {
            members[i].sampleMM = members[i].lastMM
            c += members[i].lastMM
        }
        c = c / Double(segmentCount)
        if !anchored {
            anchored = true
            anchorCentroidMM = c
            var spread = 0.0
            for i in members.indices where members[i].inSegment {
                members[i].anchorMM = members[i].sampleMM
                spread += (members[i].sampleMM - c).length
            }
            anchorSpreadMM = spread / Double(segmentCount)
            spreadMM = anchorSpreadMM
            return
        }
        fit(centroid: c)
    }

    /// The turn and scale from the segment's anchor (offsets u from its centroid) to the latest
    /// sample (offsets v).
    ///
    /// Rotation is the angle of the least-squares similarity that maps u onto v — Umeyama,
    /// "Least-squares estimation of transformation parameters between two point patterns", 1991:
    ///     turn = atan2(Σ u×v, Σ u·v)
    /// which weighs each contact by |u|²: one near the centroid, where a few millimetres is a
    /// large angle, carries little. The angle is unwrapped against the previous sample's, so a
    /// turn past ±π goes on. Scale is the ratio of mean distances to the centroid (the fit's own
    /// scale |(Σ u·v, Σ u×v)| / Σ|u|² shrinks when the contacts do not move rigidly).
    private mutating func fit(centroid c: Point) {
        var dot = 0.0, cross = 0.0, spread = 0.0
        for m in members where m.inSegment {
            let u = m.anchorMM - anchorCentroidMM
            let v = m.sampleMM - c
            dot += u.dot(v)
            cross += u.cross(v)
            spread += v.length
        }
        spreadMM = spread / Double(segmentCount)
        if dot != 0 || cross != 0 {
            let twoPi = 2 * Angle.pi
            var turn = Angle.atan2(cross, dot) - segmentRotation
            turn -= (turn / twoPi).rounded() * twoPi
            segmentRotation += turn
        }
        if anchorSpreadMM > 1e-9 { segmentScale = spreadMM / anchorSpreadMM }
        rotation = committedRotation + segmentRotation
        scale = committedScale * segmentScale
    }
}
