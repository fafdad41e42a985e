/// Touches that cannot be a person, kept from the recognizers, the app (passthrough's clone),
/// the idle timer and the screen's wake: it sits between the tracker and the arena and passes
/// on every frame but what it holds.
///
/// - A contact that begins outside the surface (beyond the axes' declared range) is a ghost
///   for its whole life.
/// - Any other contact is held while it is young: it is shown (as beginning, late) once it has
///   moved more than `stillMM` from where it began or has been down `longestGhostSeconds`; a
///   contact that lifts before either is a ghost. No person taps in less than that, so a
///   real tap at a ghost's place is never lost, only shown up to `longestGhostSeconds` late.
///   The Raspberry Pi Touch Display 2's phantom (a down and an up at one kernel time, every
///   12.864 s) lasts 0 s; the shortest of the 2,541 contacts in the project's recordings and
///   corpus lasts 8 ms (docs/conditioning.md), hence 5 ms by default.
/// - Ghosts are grouped by place into patterns; a pattern's period is learned once three ghosts
///   in a row come at intervals within 2 % of each other. Each pattern is news twice (first
///   seen, period learned), so the daemon logs it once per place, not once per ghost.
///
/// A held contact is shown late at its last position: the recognizers miss at most `stillMM` of
/// its start. `deadline` says when the next held contact is due; `release(until:)` shows it
/// (the daemon's timer, replay's clock) when no frame of the device comes first.
public struct GhostQuarantine: Sendable {
    public struct Rules: Sendable, Equatable {
        /// A contact lifting within this many seconds of touching down, unmoved, is a ghost.
        public var longestGhostSeconds: Double
        /// Moving farther than this (millimetres) from where it began shows a contact at once.
        public var stillMM: Double
        /// Ghosts closer than this (millimetres) are one pattern.
        public var samePlaceMM: Double

        public static let defaultLongestGhostMS = 5.0

        public init(longestGhostSeconds: Double = defaultLongestGhostMS / 1000, stillMM: Double = 1, samePlaceMM: Double = 3) {
            self.longestGhostSeconds = longestGhostSeconds
            self.stillMM = stillMM
            self.samePlaceMM = samePlaceMM
        }
    }

    /// Ghosts at one place.
    public struct Pattern: Sendable, Equatable {
        /// Where the first was, millimetres in screen orientation (may lie outside the surface).
        public var mm: Point
        /// Beyond the surface (the active area).
        public var outside: Bool
        public var count: Int
        public var lastTime: Double
        /// Seconds between ghosts, once they come steadily.
        public var period: Double?
        var lastInterval: Double?
    }

    /// What the log should say about a pattern (its index in `patterns`).
    public enum News: Sendable, Equatable {
        case seen(Int)
        case periodic(Int)
    }

    /// At most this many patterns are kept; a new place replaces the one quiet the longest.
    public static let maxPatterns = 16

    struct Suspect {
        var began: Double
        var start: Point
        var last: Contact
    }

    public let rules: Rules
    /// Held contacts, not shown yet.
    private var suspects: [Suspect] = []
    /// Contacts that began outside the surface: never shown.
    private var outside: [Int32] = []
    /// The frame given on: the input's contacts but those held or quarantined, late ones as beginning.
    private var shown: TouchFrame
    public private(set) var ghosts = 0
    public private(set) var patterns: [Pattern] = []
    public private(set) var news: [News] = []

    public init(rules: Rules = Rules(), surface: Surface) {
        self.rules = rules
        shown = TouchFrame(time: 0, surface: surface)
        shown.contacts.reserveCapacity(32)
        suspects.reserveCapacity(16)
        outside.reserveCapacity(16)
    }

    /// When the oldest held contact is due to be shown, if one is held.
    public var deadline: Double? {
        var d: Double?
        for s in suspects { d = min(d ?? .infinity, s.began + rules.longestGhostSeconds) }
        return d
    }

    /// Whether nothing is held (the frame passes as it is, but for contacts quarantined outside).
    public var isQuiet: Bool { suspects.isEmpty && outside.isEmpty }

    /// Forgets the news (the caller has logged it).
    public mutating func clearNews() { news.removeAll(keepingCapacity: true) }

    // MARK: frames

    /// One frame of the tracker: `emit` gets the frames the recognizers and the app see — first
    /// a frame showing held contacts whose time is up (the timer came late), then this frame
    /// without what is held. A frame left with no contact is not emitted.
    public mutating func filter(_ f: borrowing TouchFrame, emit: (borrowing TouchFrame) -> Void) {
        if !suspects.isEmpty { release(until: f.time, emit: emit) }
        shown.time = f.time
        shown.surface = f.surface
        shown.contacts.removeAll(keepingCapacity: true)
        for c in f.contacts {
            if let i = outside.firstIndex(of: c.id) {
                if !c.phase.isDown { outside.remove(at: i) }
            } else if let i = suspects.firstIndex(where: { $0.last.id == c.id }) {
                hold(i, c, f.time)
            } else if c.phase == .began {
                begin(c, f)
            } else {
                shown.contacts.append(c)
            }
        }
        if !shown.contacts.isEmpty { emit(shown) }
    }

    /// The daemon's timer (or replay's clock) at `time`: held contacts down that long are shown,
    /// in a frame of their own with the other contacts down as they were last.
    public mutating func release(until time: Double, emit: (borrowing TouchFrame) -> Void) {
        guard !suspects.isEmpty else { return }
        let longest = rules.longestGhostSeconds
        show(time: time, due: { s in s.began + longest <= time }, emit: emit)
    }


    /// Emits a frame showing the due held contacts (as beginning) beside those already shown
    /// (stationary, as the last frame had them), when some are due.
    private mutating func show(time: Double, due: (Suspect) -> Bool, emit: (borrowing TouchFrame) -> Void) {
        guard suspects.contains(where: due) else { return }
        var contacts: [Contact] = []
        for c in shown.contacts where c.phase.isDown {
            var s = c
            s.phase = .stationary
            contacts.append(s)
        }
        for s in suspects where due(s) {
            var c = s.last
            c.phase = .began
            contacts.append(c)
        }
        suspects.removeAll(where: due)
        shown.time = time
        shown.contacts = contacts
        emit(shown)
    }

    private mutating func begin(_ c: Contact, _ f: borrowing TouchFrame) {
        let s = f.surface
        if c.mm.x < 0 || c.mm.y < 0 || c.mm.x > s.widthMM || c.mm.y > s.heightMM {
            outside.append(c.id)
            quarantined(c.mm, time: f.time, outside: true)
        } else {
            suspects.append(Suspect(began: f.time, start: c.mm, last: c))
        }
    }

    /// A held contact in a frame: shown when it moved, a ghost when it lifted.
    private mutating func hold(_ i: Int, _ c: Contact, _ time: Double) {
        if c.phase.isDown {
            if suspects[i].start.distance(to: c.mm) > rules.stillMM {
                var late = c
                late.phase = .began
                shown.contacts.append(late)
                suspects.remove(at: i)
            } else {
                suspects[i].last = c
            }
        } else {
            let start = suspects[i].start
            suspects.remove(at: i)
            // Lifted young: a ghost, whatever it moved in its last frame (no finger taps that
            // fast). One the device cancelled (a palm, a resync) was nobody's tap either way.
            if c.phase == .ended { quarantined(start, time: time, outside: false) }
        }
    }

    // MARK: patterns

    private mutating func quarantined(_ mm: Point, time: Double, outside: Bool) {
        ghosts += 1
        if let i = patterns.firstIndex(where: { $0.outside == outside && $0.mm.distance(to: mm) <= rules.samePlaceMM }) {
            let interval = time - patterns[i].lastTime
            if let last = patterns[i].lastInterval, last > 0, abs(interval - last) <= 0.02 * last {
                if patterns[i].period == nil { news.append(.periodic(i)) }
                patterns[i].period = interval
            }
            patterns[i].lastInterval = interval
            patterns[i].lastTime = time
            patterns[i].count += 1
            return
        }
        let p = Pattern(mm: mm, outside: outside, count: 1, lastTime: time, period: nil, lastInterval: nil)
        if patterns.count < Self.maxPatterns {
            patterns.append(p)
            news.append(.seen(patterns.count - 1))
        } else if let quietest = patterns.indices.min(by: { patterns[$0].lastTime < patterns[$1].lastTime }) {
            patterns[quietest] = p
            news.append(.seen(quietest))
        }
    }
}
