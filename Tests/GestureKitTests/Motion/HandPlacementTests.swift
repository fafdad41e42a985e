import Testing
@testable import GestureKit

/// Multi-finger gestures with contacts placed as hands place them, in the ways panels report
/// them: every contact in every frame (most panels), and one contact per frame (panels that send
/// one contact per HID report: each finger moves in turn), at even and uneven timing (`Reporting`).
/// The middle finger of three in a row sits near the centroid, where a few millimetres is a
/// large angle.
@Suite struct HandPlacementTests {
    enum Reporting: CaseIterable {
        case allContacts, oneContactPer8ms, oneContactPer10ms
        /// Scans 10–60 ms apart (an emulated guest's or a loaded host's uneven timing), each sent
        /// as one report per contact 1 ms apart (seeded: `trials` runs).
        case scansEvery10To60ms
        /// The same with a scan's reports 0–30 ms apart (the sender starved between reports: the
        /// frames' times are not when the panel sampled).
        case scansWithReportsSpreadUpTo30ms
        /// One contact per frame, in turn, frames 8–15 ms apart, each finger sampled at its own
        /// report's time (not a scan's): a finger is seen every 24–60 ms, and a hand moving at
        /// 320 mm/s is skewed by up to (fingers − 1) × 15 ms of its motion within a round.
        case oneContactEvery8To15ms

        /// Runs of each gesture: the uneven timings are played with several seeds.
        var trials: Int { self == .allContacts || self == .oneContactPer8ms || self == .oneContactPer10ms ? 1 : 8 }
    }

    static let surface = Surface(widthMM: 300, heightMM: 200, isDirect: true)

    func frames(_ fingers: [Finger], _ reporting: Reporting, trial: Int = 0) -> [TouchFrame] {
        var s = Touches(surface: Self.surface, jitterMM: 0.2, seed: UInt64(trial))
        switch reporting {
        case .allContacts: return s.frames(fingers)
        case .oneContactPer8ms: return s.framesOneContactPerReport(fingers, report: 0.008)
        case .oneContactPer10ms: return s.framesOneContactPerReport(fingers, report: 0.010)
        case .scansEvery10To60ms: return s.framesScannedOneContactPerReport(fingers, scanGap: 0.010...0.060)
        case .scansWithReportsSpreadUpTo30ms:
            return s.framesScannedOneContactPerReport(fingers, scanGap: 0.010...0.060, reportGap: 0...0.030)
        case .oneContactEvery8To15ms: return s.framesOneContactPerReport(fingers, report: 0, uneven: 0.008...0.015)
        }
    }

    /// Index, middle and ring finger: a slight arc, the middle one highest.
    static let threeInARow = [P(130, 100), P(150, 94), P(170, 100)]
    static let fourInARow = [P(120, 102), P(140, 95), P(160, 94), P(180, 100)]
    /// Thumb low left, index and middle above it.
    static let thumbAndTwo = [P(125, 125), P(145, 85), P(170, 88)]

    /// Every finger of `hand` moved by `by` between 0.05 s and `duration`, landing 10 ms apart.
    func stroke(_ hand: [Point], by: Point, duration: Double = 0.35) -> [Finger] {
        hand.enumerated().map { i, p in
            let down = Double(i) * 0.01
            return Finger(id: Int32(i + 1), down: down, up: duration + down, path: line(p, p + by, 0.05, duration - 0.02))
        }
    }

    /// Every finger of `hand` turned by `angle` (rad, clockwise on screen) and scaled by `scale`
    /// about the hand's centroid.
    func transform(_ hand: [Point], angle: Double, scale: Double, duration: Double = 0.7) -> [Finger] {
        var c = Point.zero
        for p in hand { c += p }
        c = c / Double(hand.count)
        return hand.enumerated().map { i, p in
            let down = Double(i) * 0.01
            return Finger(id: Int32(i + 1), down: down, up: duration + down) { t in
                let u = min(max((t - 0.05) / (duration - 0.1), 0), 1)
                let a = angle * u, k = 1 + (scale - 1) * u
                let d = p - c
                return c + Point(x: d.x * cosine(a) - d.y * sine(a), y: d.x * sine(a) + d.y * cosine(a)) * k
            }
        }
    }

    @Test(arguments: Reporting.allCases)
    func fingersInARowSwipeInEveryDirection(_ reporting: Reporting) {
        let moves: [(Point, Direction)] = [(P(90, 0), .right), (P(-90, 0), .left), (P(0, -70), .up), (P(0, 70), .down)]
        for hand in [Self.threeInARow, Self.thumbAndTwo, Self.fourInARow] {
            for (by, direction) in moves {
                for trial in 0..<reporting.trials {
                    let e = run(defaultArena(), frames(stroke(hand, by: by), reporting, trial: trial))
                    let done = completedGestures(e)
                    let what = "\(hand.count) fingers \(direction) \(reporting) trial \(trial)"
                    #expect(summary(done) == ["swipe.recognized"], "\(what)")
                    #expect(done.first?.direction == direction && done.first?.fingers == hand.count, "\(what)")
                    #expect(!e.contains { $0.kind == .rotate || $0.kind == .pinch }, "\(what)")
                }
            }
        }
    }

    @Test(arguments: Reporting.allCases)
    func turningHandsRotate(_ reporting: Reporting) {
        let twoFingers = [P(130, 100), P(170, 100)]
        for hand in [twoFingers, Self.thumbAndTwo] {
            for angle in [0.9, -0.9] { for trial in 0..<reporting.trials {
                let e = run(defaultArena(), frames(transform(hand, angle: angle, scale: 1), reporting, trial: trial))
                let rotations = e.filter { $0.kind == .rotate }
                #expect(rotations.first?.phase == .began && rotations.last?.phase == .ended, "\(hand.count) fingers \(angle) \(reporting)")
                #expect(abs((rotations.last?.rotation ?? 0) - angle) < 0.1, "\(hand.count) fingers \(angle) \(reporting)")
                #expect(!e.contains { $0.kind == .swipe || $0.kind == .pinch }, "\(hand.count) fingers \(angle) \(reporting)")
            } }
        }
    }

    @Test(arguments: Reporting.allCases)
    func spreadingAndClosingHandsPinch(_ reporting: Reporting) {
        let twoFingers = [P(130, 100), P(170, 100)]
        for hand in [twoFingers, Self.thumbAndTwo] {
            for scale in [2.0, 0.5] { for trial in 0..<reporting.trials {
                let e = run(defaultArena(), frames(transform(hand, angle: 0, scale: scale), reporting, trial: trial))
                let pinches = e.filter { $0.kind == .pinch }
                #expect(pinches.first?.phase == .began && pinches.last?.phase == .ended, "\(hand.count) fingers ×\(scale) \(reporting)")
                #expect(abs((pinches.last?.scale ?? 0) - scale) < 0.1 * scale, "\(hand.count) fingers ×\(scale) \(reporting)")
                #expect(!e.contains { $0.kind == .swipe || $0.kind == .rotate }, "\(hand.count) fingers ×\(scale) \(reporting)")
            } }
        }
    }

    /// Scenario 50's swipe (three fingers in a row landing 25 ms apart, eased over 0.35 s,
    /// lifted together at 0.45 s) starting `start` seconds in, fingers `idBase`, `idBase` + 1 …
    func quickSwipe(_ start: Double, by: Point, idBase: Int32) -> [Finger] {
        Self.threeInARow.enumerated().map { i, p in
            Finger(id: idBase + Int32(i), down: start + Double(i) * 0.025, up: start + 0.45) { t in
                let u = min(max((t - start - 0.08) / 0.35, 0), 1)
                return p + by * (u * u * (3 - 2 * u))
            }
        }
    }

    @Test("a swipe 0.02–0.3 s after another is a swipe too: scans 10–45 ms apart, and a starved daemon's timer firing before it reads the new frames")
    func swipesInQuickSuccession() {
        for dt in [0.01, 0.02, 0.045] { for gap in [0.02, 0.05, 0.25, 0.3] { for lateTick in [0.0, 0.1, 0.3] {
            for (a, b) in [(P(80, 0), P(-80, 0)), (P(0, -68), P(0, 68)), (P(80, 0), P(0, 68))] {
                var s = Touches(surface: Surface(widthMM: 344, heightMM: 194, isDirect: true))
                s.dt = dt
                let frames = s.frames(quickSwipe(0, by: a, idBase: 1)) + s.frames(quickSwipe(0.45 + gap, by: b, idBase: 10))
                let arena = defaultArena()
                var out: [GestureEvent] = []
                var ticked = lateTick == 0
                for f in frames {
                    // The daemon's timer, late, runs the arena at a time after frames it has not read yet.
                    if !ticked, f.time > 0.45 + gap + 0.02 {
                        ticked = true
                        arena.tick(now: f.time + lateTick) { out.append($0) }
                    }
                    arena.fireDeadlines(until: f.time) { out.append($0) }
                    arena.handle(f) { out.append($0) }
                }
                arena.fireDeadlines(until: .infinity) { out.append($0) }
                let what = "scans \(dt) s apart, \(gap) s between, timer \(lateTick) s late, \(a) then \(b)"
                #expect(completedGestures(out).filter { $0.kind == .swipe }.map(\.fingers) == [3, 3], "\(what)")
                #expect(!out.contains { $0.kind == .pinch || $0.kind == .rotate }, "\(what)")
            }
        } } }
    }
}
