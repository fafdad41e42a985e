@testable import Daemon
import Testing

/// The mode switches of a wakeup (ModeRequests): every request asked is applied or, past the
/// chain limit, handed back to be logged — none is lost, whenever it was asked.
@Suite struct ModeRequestsTests {
    typealias Request = ModeRequests.Request

    static func request(_ mode: String) -> Request { Request(mode: mode, reason: "test", seconds: nil) }

    /// Applies every round as ModeControl.afterWakeup does, asking for more while a round is
    /// applied (`more`: what applying a mode asks for); returns what was applied and dropped.
    static func drain(_ q: inout ModeRequests, limit: Int = 8, more: (String) -> [String]) -> (applied: [String], dropped: [String]) {
        var applied: [String] = []
        while true {
            switch q.nextRound(limit: limit) {
            case .done: return (applied, [])
            case .loop(let dropped): return (applied, dropped.map(\.mode))
            case .apply(let batch):
                for r in batch {
                    applied.append(r.mode)
                    for m in more(r.mode) { q.ask(request(m)) }
                }
            }
        }
    }

    @Test func aSwitchAskedWhileARoundIsAppliedIsMadeAfterIt() {
        var q = ModeRequests()
        q.ask(Self.request("locked"))
        q.ask(Self.request("kiosk"))
        let r = Self.drain(&q) { $0 == "locked" ? ["third"] : $0 == "third" ? ["fourth", "fifth"] : [] }
        #expect(r.applied == ["locked", "kiosk", "third", "fourth", "fifth"])
        #expect(r.dropped.isEmpty && q.isEmpty)
    }

    @Test func aLoopStopsAfterTheLimitAndHandsBackWhatIsLeft() {
        var q = ModeRequests()
        q.ask(Self.request("a"))
        let r = Self.drain(&q, limit: 3) { $0 == "a" ? ["b"] : ["a"] }
        #expect(r.applied == ["a", "b", "a"])
        #expect(r.dropped == ["b"])
        // The count starts again for the next wakeup.
        q.ask(Self.request("x"))
        #expect(Self.drain(&q, limit: 1) { _ in [] }.applied == ["x"])
    }

    @Test func aFirstTouchsWakeSwitchKeepsItsPlace() {
        var q = ModeRequests()
        q.ask(Self.request("asked-before-the-touch"))
        let place = q.count
        q.ask(Self.request("asked-after-the-touch"))
        q.ask(Self.request("wake"), at: place)
        #expect(Self.drain(&q) { _ in [] }.applied == ["asked-before-the-touch", "wake", "asked-after-the-touch"])
    }
}
