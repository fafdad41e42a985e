import Evdev
import GestureKit
import Testing

/// The ghost quarantine on people's touches: every shipped recording and every stroke of the
/// five-person unistroke corpus, through the tracker and the quarantine with its default rules.
/// No real touch may be quarantined; the figures (contacts, the shortest, quarantined) are
/// printed for docs/conditioning.md.
@Suite("ghost quarantine on every recording and corpus stroke")
struct GhostFiguresTests {
    static let directories = ["recordings/tablets", "recordings/touchpads", "recordings/touchscreens", "recordings/libinput",
                              "hid-touchscreens/recorded", "synthetic", "unistroke", "unistroke-s02-s05"]

    static var files: [String] {
        directories.flatMap { d in
            TextFile.list(Fixture.root + "/" + d).filter { $0.hasSuffix(".events") || $0.hasSuffix(".evemu") || $0.hasSuffix(".yml") }
                .sorted().map { d + "/" + $0 }
        }
    }

    /// The default and longer rules (longest_ghost_ms), for the figures.
    static let longestGhostMS = [GhostQuarantine.Rules.defaultLongestGhostMS, 10, 15, 20]

    struct Figures {
        var contacts = 0
        /// Quarantined, per `longestGhostMS`.
        var quarantined = Array(repeating: 0, count: longestGhostMS.count)
        /// The shortest contact that lifted, seconds, and how far it moved (mm).
        var shortest = Double.infinity
    }

    /// Tracker → quarantine over a recording, and the contacts' lives as the tracker saw them.
    static func run(_ path: String) throws -> Figures {
        let r = try Recording.load(path: Fixture.root + "/" + path)
        var tracker = ContactTracker(info: r.info)
        var qs = Self.longestGhostMS.map { GhostQuarantine(rules: .init(longestGhostSeconds: $0 / 1000), surface: tracker.surface) }
        var figures = Figures()
        var began: [Int32: Double] = [:]
        for e in r.events {
            tracker.feed(e) { f in
                for c in f.contacts {
                    if c.phase == .began { began[c.id] = f.time; figures.contacts += 1 }
                    if c.phase == .ended, let t = began[c.id] { figures.shortest = min(figures.shortest, f.time - t) }
                }
                for i in qs.indices { qs[i].filter(f) { _ in } }
            }
        }
        figures.quarantined = qs.map(\.ghosts)
        return figures
    }

    @Test("no real contact is quarantined")
    func noRealTouchQuarantined() throws {
        var total = Figures()
        var lines: [String] = []
        for path in Self.files {
            let f = try Self.run(path)
            #expect(f.quarantined[0] == 0, "\(path): \(f.quarantined[0]) of \(f.contacts) contacts quarantined")
            total.contacts += f.contacts
            for i in f.quarantined.indices { total.quarantined[i] += f.quarantined[i] }
            total.shortest = min(total.shortest, f.shortest)
            lines.append("\(path): \(f.contacts) contacts, shortest \(DecimalText.string(f.shortest * 1000, places: 1)) ms, quarantined \(f.quarantined)")
        }
        #expect(Self.files.count >= 40)
        let rules = Self.longestGhostMS.map { DecimalText.string($0, places: 0) }.joined(separator: "/")
        print((lines + ["all \(Self.files.count) files: \(total.contacts) contacts, shortest \(DecimalText.string(total.shortest * 1000, places: 1)) ms, quarantined at \(rules) ms: \(total.quarantined)"]).joined(separator: "\n"))
    }
}
