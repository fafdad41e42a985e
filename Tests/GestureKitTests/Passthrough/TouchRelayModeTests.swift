import Testing
@testable import GestureKit

/// A kiosk mode's `passthrough = "none"` (the relay closed) and the first touch on a dark screen
/// (a sequence withheld): gestures go on, the app gets nothing.
extension TouchRelayTests {
    @Test func closedTheAppsTouchIsCancelledAndNewOnesAreWithheldUntilOpened() {
        var r = TouchRelay(rules: .init())
        var s = RelayFrames()
        let facts = Facts()
        #expect(step(&r, s.frame((1, .began, 100, 60)), facts) == [.forward(slot: 0)])
        var out: [TouchRelay.Output] = []
        r.close(out: &out)
        #expect(out == [.cancel(slot: 0), .sync])
        #expect(step(&r, s.frame((1, .moved, 110, 60), (2, .began, 50, 50)), facts) == [])
        #expect(r.state(of: 2) == .withheld)
        #expect(step(&r, s.frame((1, .ended, 110, 60), (2, .ended, 50, 50)), facts) == [])
        #expect(step(&r, s.frame((3, .began, 80, 60)), facts) == [])
        r.open()
        // Contact 3 began while closed: the app never saw its start, so never any of it.
        #expect(step(&r, s.frame((3, .moved, 90, 60)), facts) == [])
        #expect(step(&r, s.frame((3, .ended, 90, 60)), facts) == [])
        #expect(step(&r, s.frame((4, .began, 80, 60)), facts) == [.forward(slot: 3)])
    }

    @Test func aWithheldSequenceReachesTheAppNeverAndTheNextOneDoes() {
        var r = TouchRelay(rules: .init())
        var s = RelayFrames()
        let facts = Facts()
        r.withholdSequence()
        #expect(step(&r, s.frame((1, .began, 100, 60)), facts) == [])
        #expect(step(&r, s.frame((1, .moved, 100, 61), (2, .began, 20, 20)), facts) == [])
        #expect(step(&r, s.frame((1, .ended, 100, 61), (2, .ended, 20, 20)), facts) == [])
        #expect(step(&r, s.frame((3, .began, 100, 60)), facts) == [.forward(slot: 2)])
    }

    @Test func aFrameStartsASequenceOnlyWhenNoFingerWasDown() {
        var s = RelayFrames()
        #expect(s.frame((1, .began, 100, 60)).startsSequence)
        #expect(!s.frame((1, .moved, 100, 60), (2, .began, 20, 20)).startsSequence)
        #expect(!s.frame((1, .ended, 100, 60)).startsSequence)
    }
}
