import Testing
@testable import GestureKit

/// The ghost quarantine between the tracker and the arena: what it shows of each frame.
@Suite struct GhostQuarantineTests {
    static let surface = Surface(widthMM: 200, heightMM: 120, isDirect: true)

    /// The frames the quarantine shows, as "time: id phase, …" lines.
    struct Run {
        var q = GhostQuarantine(rules: .init(longestGhostSeconds: 0.015), surface: GhostQuarantineTests.surface)
        var shown: [String] = []
        var starts: [Bool] = []

        mutating func frame(_ time: Double, _ contacts: [(Int32, ContactPhase, Double, Double)]) {
            let f = TouchFrame(time: time, surface: GhostQuarantineTests.surface, contacts: contacts.map { id, phase, x, y in
                Contact(id: id, slot: id, phase: phase, mm: Point(x: x, y: y), position: Point(x: x / 200, y: y / 120))
            })
            var lines: [String] = [], starts: [Bool] = []
            q.filter(f) { s in
                lines.append(Self.line(s))
                starts.append(s.startsSequence)
            }
            shown += lines
            self.starts += starts
        }

        mutating func tick(_ time: Double) {
            var lines: [String] = []
            q.release(until: time) { lines.append(Self.line($0)) }
            shown += lines
        }

        static func line(_ f: borrowing TouchFrame) -> String {
            "\(f.time): " + f.contacts.map { "\($0.id) \($0.phase)" }.joined(separator: ", ")
        }
    }

    @Test func aZeroLengthTapIsAGhostAndNothingOfItIsShown() {
        var r = Run()
        r.frame(64.288, [(1, .began, 190, 4.8)])
        r.frame(64.288, [(1, .ended, 190, 4.8)])
        #expect(r.shown.isEmpty)
        #expect(r.q.ghosts == 1 && r.q.deadline == nil)
    }

    @Test func aRealTapWithNoFrameBetweenIsShownLateThenEnds() {
        var r = Run()
        r.frame(1.0, [(1, .began, 100, 60)])
        #expect(abs((r.q.deadline ?? 0) - 1.015) < 1e-9)
        r.frame(1.06, [(1, .ended, 100, 60)])
        // The timer came late: the tap is shown at the frame's time, then it ends.
        #expect(r.shown == ["1.06: 1 began", "1.06: 1 ended"])
        #expect(r.starts == [true, false])
        #expect(r.q.ghosts == 0)
    }

    @Test func theTimerShowsAStillFingerAtItsDeadline() {
        var r = Run()
        r.frame(1.0, [(1, .began, 100, 60)])
        r.tick(1.01)
        #expect(r.shown.isEmpty)
        r.tick(1.016)
        r.frame(1.2, [(1, .ended, 100, 60)])
        #expect(r.shown == ["1.016: 1 began", "1.2: 1 ended"])
        #expect(r.q.deadline == nil)
    }

    @Test func movingShowsAContactAtOnceAndAFlickOfAGhostsLengthIsStillAGhost() {
        var r = Run()
        r.frame(1.0, [(1, .began, 100, 60)])
        r.frame(1.004, [(1, .moved, 100.5, 60)])
        #expect(r.shown.isEmpty)
        r.frame(1.008, [(1, .moved, 101.5, 60)])
        r.frame(1.1, [(1, .ended, 101.5, 60)])
        #expect(r.shown == ["1.008: 1 began", "1.1: 1 ended"])
        r.frame(2.0, [(2, .began, 100, 60)])
        r.frame(2.005, [(2, .ended, 110, 60)])
        #expect(r.q.ghosts == 1)
    }

    @Test func aTouchBeginningOutsideTheSurfaceIsAGhostForItsWholeLife() {
        var r = Run()
        r.frame(1.0, [(1, .began, 201, 60)])
        r.frame(1.1, [(1, .moved, 150, 60)])
        r.tick(2)
        r.frame(1.2, [(1, .ended, 150, 60)])
        #expect(r.shown.isEmpty)
        #expect(r.q.ghosts == 1 && r.q.patterns.first?.outside == true && r.q.isQuiet)
    }

    @Test func aSecondFingerIsHeldWhileTheFirstGoesOnAndIsShownBesideIt() {
        var r = Run()
        r.frame(1.0, [(1, .began, 50, 60)])
        r.frame(1.01, [(1, .moved, 55, 60)])
        r.frame(1.03, [(1, .moved, 56, 60), (2, .began, 150, 60)])
        r.frame(1.04, [(1, .moved, 57, 60), (2, .stationary, 150, 60)])
        r.tick(1.046)
        r.frame(1.05, [(1, .moved, 58, 60), (2, .stationary, 150, 60)])
        #expect(r.shown == ["1.01: 1 began", "1.03: 1 moved", "1.04: 1 moved", "1.046: 1 stationary, 2 began", "1.05: 1 moved, 2 stationary"])
        #expect(r.starts == [true, false, false, false])  // the frames of `frame` (the tick's shows a contact beside one down)
    }

    @Test func aSteadyPatternIsLearnedAndTheRealTapsAtItsPlaceAllPass() {
        var r = Run()
        var id: Int32 = 1
        for k in 0..<5 {
            let t = 64.288 + Double(k) * 12.864
            r.frame(t, [(id, .began, 190, 4.8)])
            r.frame(t, [(id, .ended, 190, 4.8)])
            id += 1
            // A person taps the same button between the ghosts.
            r.frame(t + 3, [(id, .began, 190.5, 5)])
            r.frame(t + 3.07, [(id, .ended, 190.5, 5)])
            id += 1
        }
        #expect(r.q.ghosts == 5)
        #expect(r.shown.count == 10)  // each real tap: shown, ended
        #expect(r.q.patterns.count == 1 && r.q.patterns[0].count == 5)
        #expect(abs((r.q.patterns[0].period ?? 0) - 12.864) < 1e-9)
        #expect(r.q.news == [.seen(0), .periodic(0)])
        r.q.clearNews()
        #expect(r.q.news.isEmpty)
    }

    @Test func ghostsAtOtherPlacesAreOtherPatternsAndTheirNumberIsBounded() {
        var r = Run()
        for k in 0..<(GhostQuarantine.maxPatterns + 4) {
            let x = Double(k) * 10 + 5
            r.frame(Double(k), [(Int32(k + 1), .began, x, 60)])
            r.frame(Double(k), [(Int32(k + 1), .ended, x, 60)])
        }
        #expect(r.q.patterns.count == GhostQuarantine.maxPatterns)
        #expect(r.q.ghosts == GhostQuarantine.maxPatterns + 4)
        #expect(r.q.patterns.contains { $0.mm.x == 195 })
    }

    @Test func aHeldContactTheDeviceCancelsIsDroppedUncounted() {
        var r = Run()
        r.frame(1.0, [(1, .began, 100, 60)])
        r.frame(1.005, [(1, .cancelled, 100, 60)])
        #expect(r.shown.isEmpty && r.q.ghosts == 0 && r.q.isQuiet)
    }
}
