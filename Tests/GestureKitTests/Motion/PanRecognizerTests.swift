import Glibc
import Testing
@testable import GestureKit

@Suite struct PanRecognizerTests {
    @Test func beganAfterSlopThenChangedThenEndedWithRestingPoint() {
        var s = Touches()
        // 100 mm/s to the right for 0.5 s, lifted while moving.
        let e = run(PanRecognizer(), s.frames([Finger(id: 1, down: 0, up: 0.5, path: line(P(50, 60), P(100, 60), 0, 0.5))]))
        #expect(e.first?.phase == .began)
        // 4 mm slop at 100 mm/s: the first frame at or past 0.04 s.
        #expect((e.first?.translationMM?.x ?? 0) >= 4)
        #expect((e.first?.time ?? 1) <= 0.05)
        #expect(e.dropFirst().dropLast().allSatisfy { $0.phase == .changed })
        let end = e.last
        #expect(end?.phase == .ended)
        #expect(abs((end?.translationMM?.x ?? 0) - 50) < 1e-6)
        #expect(abs((end?.velocityMM?.x ?? 0) - 100) < 1)
        // resting = 100 + 100 mm/s · 0.998 / (1000 · 0.002) s = 100 + 49.9
        #expect(abs((end?.restingPointMM?.x ?? 0) - 149.9) < 0.5)
        #expect(abs((end?.restingPointMM?.y ?? 0) - 60) < 1e-6)
    }

    @Test func restingFingerIsNotFlung() {
        var s = Touches()
        let e = run(PanRecognizer(), s.frames([Finger(id: 1, down: 0, up: 0.6, path: line(P(50, 60), P(100, 60), 0, 0.3))]))
        #expect(e.last?.phase == .ended)
        #expect(abs((e.last?.restingPointMM?.x ?? 0) - 100) < 1e-6)
    }

    @Test func stillTouchFails() {
        var s = Touches(jitterMM: 0.5)
        let r = PanRecognizer()
        #expect(run(r, s.frames([Finger(id: 1, down: 0, up: 0.3, path: still(P(50, 60)))])).isEmpty)
        #expect(r.state == .failed)
    }

    @Test func fingerLandingLateDoesNotJump() {
        var s = Touches()
        let e = run(PanRecognizer(), s.frames([
            Finger(id: 1, down: 0, up: 0.5, path: line(P(50, 60), P(100, 60), 0, 0.5)),
            Finger(id: 2, down: 0.2, up: 0.5, path: line(P(50, 90), P(80, 90), 0.2, 0.5)),
        ]))
        // Both fingers move 10 mm per 0.1 s throughout: translation = 50 mm, no jump when
        // the second finger (30 mm below) lands.
        #expect(abs((e.last?.translationMM?.x ?? 0) - 50) < 1e-6)
        #expect(abs(e.last?.translationMM?.y ?? 1) < 1e-6)
        #expect(e.contains { $0.fingers == 2 })
    }

    @Test func fingerCountLimits() {
        var s = Touches()
        let r = PanRecognizer { $0.minFingers = 2 }
        #expect(run(r, s.frames([Finger(id: 1, down: 0, up: 0.5, path: line(P(50, 60), P(100, 60), 0, 0.5))])).isEmpty)
    }
}

@Suite struct PinchRotateTests {
    /// Two fingers at angle θ(t) and half-distance r(t) about (100, 60).
    func pair(r: @escaping (Double) -> Double, angle: @escaping (Double) -> Double, up: Double = 0.5) -> [Finger] {
        func pos(_ t: Double, _ sign: Double) -> Point {
            let a = angle(t)
            // cos/sin from the standard library-free series: use Angle-free rotation via small steps.
            return P(100 + sign * r(t) * cosine(a), 60 + sign * r(t) * sine(a))
        }
        return [Finger(id: 1, down: 0, up: up, path: { pos($0, 1) }),
                Finger(id: 2, down: 0, up: up, path: { pos($0, -1) })]
    }

    @Test func pinchScaleFromMeanDistance() {
        var s = Touches(jitterMM: 0.2)
        let e = run(PinchRecognizer(), s.frames(pair(r: { 10 + 40 * $0 }, angle: { _ in 0 })))
        #expect(e.first?.phase == .began)
        // began once the half-distance grew by 5 mm: 15/10 = 1.5 (within a frame: 0.4 mm)
        #expect(abs((e.first?.scale ?? 0) - 1.5) < 0.08)
        // 10 → 30 mm: scale 3
        #expect(abs((e.last?.scale ?? 0) - 3) < 0.1)
        #expect(e.last?.phase == .ended)
    }

    @Test func rotationIsClockwisePositiveAndUnwrapped() {
        var s = Touches()
        // Angle grows with y down: clockwise on screen; 1.25 turns.
        let turn = 2 * Angle.pi * 1.25
        let e = run(RotateRecognizer(), s.frames(pair(r: { _ in 25 }, angle: { turn * $0 / 0.5 })))
        #expect(e.first?.phase == .began)
        #expect(abs((e.last?.rotation ?? 0) - turn) < 1e-6)
        var s2 = Touches()
        let ccw = run(RotateRecognizer(), s2.frames(pair(r: { _ in 25 }, angle: { -1.0 * $0 / 0.5 })))
        #expect(abs((ccw.last?.rotation ?? 0) + 1.0) < 1e-6)
    }

    @Test func parallelDragIsNeitherPinchNorRotate() {
        var s = Touches(jitterMM: 0.4)
        let fingers = [Finger(id: 1, down: 0, up: 0.5, path: line(P(80, 30), P(80, 90), 0, 0.5)),
                       Finger(id: 2, down: 0.02, up: 0.5, path: line(P(110, 32), P(110, 92), 0.02, 0.5))]
        let frames = s.frames(fingers)
        #expect(run(PinchRecognizer(), frames).isEmpty)
        #expect(run(RotateRecognizer(), frames).isEmpty)
    }
}

/// cos and sin for tests' synthetic paths: Glibc's, independent of the core's Angle.
func cosine(_ x: Double) -> Double { Glibc.cos(x) }
func sine(_ x: Double) -> Double { Glibc.sin(x) }
