import Testing
@testable import GestureKit

/// A one-finger stroke's frames are taken by `ContactGroup`'s lone-contact path; the same frames
/// with a contact the group never saw, cancelled in each of them (not counted, not a member),
/// go through its pass over every contact. Both must leave the group in the same state, bit
/// for bit, after every frame: recognition reads nothing else.
@Suite struct ContactGroupTests {
    static let surface = Surface(widthMM: 300, heightMM: 200, isDirect: true)

    /// A finger that lands, rests (stationary, and moved to where it was), moves by steps as
    /// small as 1e-9 mm, back to its start, to -0, and on; then a second finger lands, both
    /// turn about their middle (rotation and scale are sampled from the rounds the first
    /// finger's lone frames counted), the second lifts and the first lifts last.
    static func frames() -> [[Contact]] {
        var frames = [[Contact(id: 7, slot: 0, phase: .began, mm: P(10, 20), position: P(0.1, 0.2))]]
        var p = P(10, 20)
        var seed: UInt64 = 12345
        func contact(_ id: Int32, _ phase: ContactPhase, _ q: Point) -> Contact {
            Contact(id: id, slot: id - 7, phase: phase, mm: q, position: P(q.x / 300, q.y / 200))
        }
        for k in 1..<200 {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            let r = Double(seed >> 11) / Double(1 << 53)
            let phase: ContactPhase
            switch k % 17 {
            case 3: phase = .stationary
            case 5: phase = .moved  // reported, not moved
            case 9: p = P(p.x + 1e-9, p.y - 1e-9); phase = .moved
            case 11: p = k < 100 ? P(-0.0, p.y) : P(0, -0.0); phase = .moved
            case 13: p = P(10, 20); phase = .moved
            default: p = P(p.x + (r - 0.3) * 7, p.y + (0.5 - r) * 3); phase = .moved
            }
            var frame = [contact(7, phase, p)]
            let a = Double(k - 150) * 0.05
            let q = P(p.x + 30 * Angle.cos(a), p.y + 30 * Angle.sin(a))
            if k == 150 { frame.append(contact(8, .began, q)) }
            if k > 150 && k < 170 { frame.append(contact(8, .moved, q)) }
            if k == 170 { frame.append(contact(8, .ended, q)) }
            frames.append(frame)
        }
        frames.append([contact(7, .ended, p)])
        return frames
    }

    @Test func loneContactPathEqualsThePassOverEveryContact() {
        var lone = ContactGroup(), general = ContactGroup()
        let unseen = Contact(id: 99, slot: 5, phase: .cancelled, mm: P(150, 100), position: P(0.5, 0.5))
        for (k, contacts) in Self.frames().enumerated() {
            let time = 1000 + Double(k) * 0.008
            lone.update(TouchFrame(time: time, surface: Self.surface, contacts: contacts))
            general.update(TouchFrame(time: time, surface: Self.surface, contacts: contacts + [unseen]))
            #expect(Snapshot(lone) == Snapshot(general), "frame \(k)")
        }
        #expect(lone.downCount == 0 && lone.maxDownCount == 2 && lone.rotation != 0 && lone.pathLengthMM > 100)
    }

    /// Every figure a recognizer reads, compared by bits (so that -0 and +0 differ).
    struct Snapshot: Equatable {
        var bits: [UInt64]
        var flags: [Bool]
        var counts: [Int]

        init(_ g: ContactGroup) {
            let points = [g.translationMM, g.translationPosition, g.centroidMM, g.centroidPosition,
                          g.startCentroidMM, g.startCentroidPosition, g.meanStart.mm, g.meanStart.position]
            bits = points.flatMap { [$0.x.bitPattern, $0.y.bitPattern] }
                + [g.scale, g.rotation, g.pathLengthMM, g.spreadMM, g.maxDisplacementMM, g.firstTime, g.lastTime]
                .map(\.bitPattern)
            flags = [g.changedInLastFrame, g.landedAfterLift, g.anyLifted, g.isEmpty]
            counts = [g.downCount, g.maxDownCount, g.frameCount]
        }
    }
}
