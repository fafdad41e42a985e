/// Which touches the app under gestured sees when a device is passed through (UIKit's
/// `cancelsTouchesInView` / `delaysTouchesBegan`, below any toolkit). A pure state machine:
/// it takes each frame after the arena has judged it, plus the arena's claims (ContactClaims),
/// and says what to write to the device's clone. The I/O is TouchClone's.
///
/// Per contact, one of four states (named as libinput names its touch states):
///
/// - `forwarding`: the app sees it live; each frame's events of its slot go out as they came.
/// - `held`: it began in a delay region (or after `delayFingers` fingers came down): its
///   positions are kept back until no recognizer that saw it can take it any more, then
///   delivered in order with their real coordinates, and it goes on as `forwarding`.
/// - `cancelled`: the app saw it, then a winning recognizer took it (`cancelsTouches`), and it
///   ended for the app (`Ending`): its tool turned to MT_TOOL_PALM, which libinput reports as
///   TOUCH_CANCEL, or it was lifted; nothing more of it goes out except its release.
/// - `ending`: taken while the app's touch was still within `liftSlopMM` of where it came down
///   (ending `.lift`) on a device whose x axis is unknown (with it, the touch steps beyond the
///   slop at once: `escape`): a lift there would be a tap, so it goes on as `forwarding` until
///   it moved beyond the slop, then lifts (a drag that ended: no tap).
/// - `withheld`: a recognizer took it before the app saw any of it: the app never sees it.
/// - `lingering`: ending `.lift`, while the app has another touch down: taken (or lifted while a
///   gesture may still take it), the app's touch stays where it is and nothing more of it goes
///   out; it lifts once `multiTapSeconds` have passed since the app's last touch came down
///   (`deadline`, then `settle`), so that touches lifting together are never a multi-finger tap
///   (Chromium's two-finger tap opens a context menu). One that turns out not taken lifts at
///   once. Before that, while a gesture may take the app's touches together, their motion is
///   kept back (`holdsMotion`: a browser zooms by a pinch's spread).
public struct TouchRelay {
    public enum State: UInt8, Sendable, Equatable {
        case forwarding, held, cancelled, withheld, ending, lingering
    }

    /// How a taken touch the app already has ends for it. Most compositors drop libinput's
    /// TOUCH_CANCEL (cage, sway, weston, as measured in docs/kiosk.md): a cancelled touch never
    /// ends for the app there, so `.lift` is the safe choice; `.cancel` is UIKit's, for
    /// compositors that forward `wl_touch.cancel`.
    public enum Ending: Sendable, Equatable {
        /// MT_TOOL_PALM, then the release: libinput's TOUCH_CANCEL.
        case cancel
        /// A plain lift once the app's touch moved beyond `liftSlopMM` (`ending` until then).
        case lift
    }

    /// A touch that moved this far from where the app got it down is a drag to the app, not a
    /// tap, whatever it does next (toolkits' tap slops: GTK 8 px, Qt 10 px, Chromium 15 dip,
    /// Flutter 18 px, each at most about 5 mm on a kiosk screen).
    public static let liftSlopMM = 5.0

    /// Touches of one sequence whose first lift comes this soon after the last of them came down,
    /// none beyond its slop, are a multi-finger tap to a toolkit: Chromium's GestureDetector
    /// fires its two-finger tap (a context menu) at the first of two lifts within
    /// `two_finger_tap_timeout` of the second down — `max_touch_down_duration_for_click_in_ms`,
    /// 800 ms on Linux (ui/events/gesture_detection). 0.1 s more for the clone's writes.
    public static let multiTapSeconds = 0.9

    /// The passthrough settings of one device.
    public struct Rules: Sendable, Equatable {
        /// A winner's contacts are cancelled for the app (UIKit's cancelsTouchesInView).
        public var cancelsTouches: Bool
        /// How a taken touch ends for the app.
        public var ending: Ending
        /// Touches that begin in these rectangles (normalized screen coordinates) are held.
        public var delayRects: [Rect]
        /// Touches that begin within this many millimetres of an edge are held ("edges").
        public var edgeDepthMM: Double?
        /// Once this many fingers are down together, the sequence belongs to gestures: the
        /// touches the app already has are cancelled, later ones held.
        public var delayFingers: Int?
        /// The app's finger count (`app_fingers`): once more fingers than this are down together,
        /// the sequence is not the app's (`limitAppFingers`). Gestures still see every finger.
        public var appFingers: Int?
        /// The device's raw x axis: where a taken touch still within the slop steps to when its
        /// finger lifts (`escape`); nil, it lifts where it is (a tap to the app).
        public var rawX: RawAxis?

        public init(cancelsTouches: Bool = true, ending: Ending = .cancel, delayRects: [Rect] = [], edgeDepthMM: Double? = nil, delayFingers: Int? = nil) {
            self.cancelsTouches = cancelsTouches
            self.ending = ending
            self.delayRects = delayRects
            self.edgeDepthMM = edgeDepthMM
            self.delayFingers = delayFingers
        }
    }

    /// A raw axis's centre and units per millimetre.
    public struct RawAxis: Sendable, Equatable {
        public var centre: Double
        public var unitsPerMM: Double

        public init(centre: Double, unitsPerMM: Double) {
            self.centre = centre
            self.unitsPerMM = unitsPerMM
        }
    }

    /// What to write to the clone, in order. `.sync` ends a frame; the last frame of a step is
    /// ended by the writer (so a step with nothing to say writes nothing but that frame's end).
    public enum Output: Sendable, Equatable {
        /// This frame's events of the slot, as the device sent them.
        case forward(slot: Int32)
        /// The app's contact in the slot turns into a palm (TOUCH_CANCEL); its release follows
        /// when the real finger lifts.
        case cancel(slot: Int32)
        /// A held contact delivered late, at raw device coordinates; `lift` also ends a taken
        /// contact for the app (ending `.lift`).
        case begin(slot: Int32, x: Int32, y: Int32)
        case move(slot: Int32, x: Int32, y: Int32)
        case lift(slot: Int32)
        /// The slot's finger lifted, but the app's touch stays down (`lingering`): its release in
        /// this frame is not written.
        case keep(slot: Int32)
        case sync
    }

    /// At most this many positions are kept for one held contact; beyond it, the latest
    /// position replaces the previous one (the path's end and its start stay exact).
    public static let maxHeldSamples = 4096

    struct Sample {
        var x: Int32
        var y: Int32
    }

    struct Track {
        var id: Int32
        var slot: Int32
        var state: State
        /// The real contact has ended.
        var lifted = false
        /// Began in the frame being handled: nothing of it has been written yet.
        var fresh = true
        /// Delivered from the hold in the frame being handled: its position is written already.
        var replayed = false
        var samples: [Sample] = []
        /// Where the contact began (the app's down), in mm and raw, and whether it went beyond
        /// `liftSlopMM` from there.
        var originMM: Point
        var originRaw: Point
        var beyondSlop = false
        /// When the app got its down (the frame's time), and where its touch is (raw).
        var downTime: Double
        var appRaw: Point
        /// `lingering`: a gesture took it (it lifts at `lingerUntil`); false, its finger lifted
        /// while a gesture might still take it, and the arena has not said.
        var taken = false
        /// `forwarding`, one of the app's touches together: its motion is kept back while a
        /// gesture may take it (`holdsMotion`); the real finger is at `lastRaw`.
        var frozen = false
        var lastRaw: Point
    }

    public let rules: Rules
    private var tracks: [Track] = []
    /// `delayFingers` was reached in this sequence.
    private var fingersReached = false
    /// More than `appFingers` fingers were down together in this sequence.
    private var beyondAppFingers = false
    /// After a drop: contacts that begin before every finger is up are withheld.
    private var ignoringUntilAllUp = false
    /// The app gets nothing (a kiosk mode's `passthrough = "none"`): every contact that begins
    /// is withheld; gestures are still recognized from it.
    public private(set) var isClosed = false
    /// The latest time heard (a frame's, or `settle`'s `now`).
    private var clock = -Double.infinity
    /// When the taken `lingering` touches lift (`due`).
    public private(set) var lingerUntil: Double?

    public init(rules: Rules) {
        self.rules = rules
        tracks.reserveCapacity(32)
    }

    /// The state of a contact, nil when the relay does not track it (not begun, or done).
    public func state(of id: Int32) -> State? {
        tracks.first { $0.id == id }?.state
    }

    // MARK: Steps

    /// One frame, after the arena has handled it.
    public mutating func frame(_ f: borrowing TouchFrame, claims: some ContactClaims, out: inout [Output]) {
        clock = max(clock, f.time)
        for c in f.contacts where c.phase == .began {
            // A held contact that already lifted still owns its slot in the clone's eyes.
            for i in tracks.indices where tracks[i].slot == c.slot && tracks[i].lifted && tracks[i].state == .held {
                deliver(i, out: &out, time: f.time)
            }
            // So does a lingering one: the lingering touches end now (stepping beyond the slop,
            // which no toolkit takes for a tap either).
            if tracks.contains(where: { $0.slot == c.slot && $0.state == .lingering }) { endLingering(out: &out) }
            let hold = fingersReached || delays(c, f.surface)
            tracks.append(Track(id: c.id, slot: c.slot, state: ignoringUntilAllUp || isClosed ? .withheld : hold ? .held : .forwarding,
                                originMM: c.mm, originRaw: c.raw, downTime: f.time, appRaw: c.raw, lastRaw: c.raw))
        }
        if let n = rules.delayFingers, !fingersReached, f.downCount >= n {
            fingersReached = true
            var cancelled = false
            for i in tracks.indices where !tracks[i].lifted && tracks[i].state == .forwarding {
                if tracks[i].fresh {
                    tracks[i].state = .held
                } else {
                    if take(i, out: &out) { cancelled = true }
                }
            }
            if cancelled { out.append(.sync) }
        }
        if let n = rules.appFingers { limitAppFingers(n, f.downCount, out: &out) }
        settleClaims(claims, out: &out)
        for c in f.contacts {
            guard let i = index(of: c.id) else { continue }
            let ends = !c.phase.isDown
            if ends { tracks[i].lifted = true }
            tracks[i].lastRaw = c.raw
            if !tracks[i].beyondSlop, (c.mm - tracks[i].originMM).length > Self.liftSlopMM { tracks[i].beyondSlop = true }
            if tracks[i].state == .held {
                if c.phase == .cancelled {
                    tracks[i].state = .withheld  // the device took it back: nothing to deliver
                    tracks[i].samples.removeAll()
                } else if c.phase != .stationary || tracks[i].fresh {
                    hold(i, Sample(x: Int32(c.raw.x), y: Int32(c.raw.y)))
                }
            }
        }
        releaseUncontested(claims, out: &out)
        for c in f.contacts where c.phase != .stationary {
            guard let i = index(of: c.id), !tracks[i].replayed else { continue }
            if tracks[i].state == .forwarding || tracks[i].state == .ending, c.phase == .cancelled {
                endCancelled(i, out: &out)
            } else if tracks[i].state == .forwarding, c.phase == .ended, rules.cancelsTouches, rules.ending == .lift,
                      claims.isContested(c.id), othersDown(i) {
                // A lift now, with another touch down, may be the first of a multi-finger tap
                // that a gesture is about to take (a two-finger tap is recognized at the last lift):
                // the app's lift waits for the arena.
                tracks[i].state = .lingering
                out.append(.keep(slot: c.slot))
            } else if tracks[i].state == .forwarding, c.phase == .moved, holdsMotion(i, claims) {
                // Touches together that a gesture may take move for the app only once none can:
                // a pinch's spread seen before it is recognized is a zoom to a browser (Chromium's
                // span slop is 30 px, less than the pinch's 5 mm on most kiosk screens).
                tracks[i].frozen = true
            } else if tracks[i].state == .forwarding {
                catchUp(i, out: &out)
                out.append(.forward(slot: c.slot))
                tracks[i].appRaw = c.raw
            } else if tracks[i].state == .ending {
                forwardEnding(i, c, out: &out)
            } else if tracks[i].state == .lingering, c.phase == .ended {
                out.append(.keep(slot: c.slot))
            }
        }
        if let t = lingerUntil, t <= clock { endLingering(out: &out) }
        finishStep()
        if f.downCount == 0 {
            fingersReached = false
            beyondAppFingers = false
            ignoringUntilAllUp = false
        }
    }

    /// Whether what the app gets of `f` cannot depend on the arena's verdict on it, so that it
    /// can go out before the arena judges it (`frame` with `NoClaims`, then `settle` after the
    /// arena): the clone then never waits for the recognizers on the frame where they cost most,
    /// the lift, where the shapes are decided. True when the frame lifts every contact the relay
    /// tracks and each is the app's (forwarding, not new), and a taken touch ends as a lift
    /// (`ending` lift, or nothing cancelled): taken beyond the slop, `take` lifts it; within
    /// it, it goes on as `ending` and its lift is forwarded; not taken, it is forwarded. The app
    /// sees the same lift either way — except where a take within the slop steps the touch away
    /// (`escape`, with `rules.rawX`): such a lift waits for the arena.
    public func decidesWithoutArena(_ f: borrowing TouchFrame) -> Bool {
        guard rules.ending == .lift || !rules.cancelsTouches, !isClosed, !ignoringUntilAllUp,
              !tracks.isEmpty, f.contacts.count == tracks.count,
              // Touches lifting together may be a multi-finger tap a gesture takes (`lingering`).
              tracks.count == 1 || !rules.cancelsTouches else { return false }
        let mayEscape = rules.cancelsTouches && rules.rawX != nil
        for c in f.contacts {
            guard c.phase == .ended, let i = index(of: c.id), tracks[i].state == .forwarding, !tracks[i].fresh,
                  !mayEscape || tracks[i].beyondSlop else { return false }
        }
        return true
    }

    /// The claims of a frame judged before the arena (`decidesWithoutArena`): none yet.
    public struct NoClaims: ContactClaims {
        public init() {}
        public func drainClaims(_ body: (Int32) -> Void) {}
        public func isContested(_ id: Int32) -> Bool { false }
    }

    /// After timers ran (no frame): claims and failures may have settled held contacts, and the
    /// lingering touches may be due (`now`: the clock of the frames' times).
    public mutating func settle(claims: some ContactClaims, now: Double? = nil, out: inout [Output]) {
        if let now { clock = max(clock, now) }
        settleClaims(claims, out: &out)
        releaseUncontested(claims, out: &out)
        if let t = lingerUntil, t <= clock { endLingering(out: &out) }
        finishStep()
    }

    /// When `settle` must run next for the lingering touches to lift, if ever.
    public var deadline: Double? { lingerUntil }

    /// The device dropped events or is going away: the app's contacts are cancelled, held ones
    /// forgotten, and contacts that begin before every finger is up are withheld (the arena
    /// ignores them too). `neverATap` (the panel went away under resting fingers, which never
    /// lifted): under `.lift` a contact still within the slop steps beyond it first (`escape`).
    public mutating func drop(neverATap: Bool = false, out: inout [Output]) {
        cancelForApp(neverATap: neverATap, out: &out)
        ignoringUntilAllUp = true
        fingersReached = false
    }

    /// The app gets nothing from now on: the contacts it has are cancelled (TOUCH_CANCEL), held
    /// ones are never delivered, and every later contact is withheld until `open`.
    public mutating func close(out: inout [Output]) {
        guard !isClosed else { return }
        isClosed = true
        cancelForApp(out: &out)
    }

    /// The app gets touches again, from the next contact that begins; contacts down now stay
    /// withheld until they lift (the app never saw their start).
    public mutating func open() {
        isClosed = false
    }

    /// The touches of the sequence beginning in the next frame are withheld until every finger
    /// is up: the first touch on a dark screen only wakes it (call before that frame).
    public mutating func withholdSequence() {
        ignoringUntilAllUp = true
    }

    // MARK: Transitions

    /// A contact the app has that the device side cancelled (a palm, by its tool or its size:
    /// PalmRule) ends for the app as a taken touch ends, whatever the device's own events say
    /// (a size is no palm to libinput); its release follows when it lifts.
    private mutating func endCancelled(_ i: Int, out: inout [Output]) {
        _ = take(i, now: true, out: &out)
        out.append(.sync)
    }

    /// `appFingers`: when more than `n` fingers are down together, the touches the app has end
    /// as a taken touch ends (`take`: with `lift`, a touch within the slop follows the finger
    /// until it is a drag, at most 5 mm of scroll, never a tap) and every other touch of the
    /// sequence, held or new, is withheld until all fingers are up: the browser never sees a
    /// pinch or a two-finger swipe.
    private mutating func limitAppFingers(_ n: Int, _ down: Int, out: inout [Output]) {
        guard beyondAppFingers || down > n else { return }
        beyondAppFingers = true
        var cancelled = false
        for i in tracks.indices where !tracks[i].lifted {
            switch tracks[i].state {
            case .forwarding where tracks[i].fresh, .held:
                tracks[i].state = .withheld
                tracks[i].samples.removeAll()
            case .forwarding:
                if take(i, out: &out) { cancelled = true }
            case .cancelled, .withheld, .ending, .lingering:
                break
            }
        }
        if cancelled { out.append(.sync) }
    }

    /// Cancels the app's contacts and forgets held ones (a drop, or the relay closing).
    private mutating func cancelForApp(neverATap: Bool = false, out: inout [Output]) {
        var cancelled = false
        for i in tracks.indices {
            switch tracks[i].state {
            case .lingering:
                out.append(.lift(slot: tracks[i].slot))
                tracks[i].state = .cancelled
                cancelled = true
            case .forwarding where !tracks[i].lifted, .ending where !tracks[i].lifted:
                if neverATap, rules.ending == .lift, !tracks[i].beyondSlop, let x = rules.rawX {
                    escape(i, x, out: &out)
                    cancelled = true
                } else if take(i, now: true, out: &out) {
                    cancelled = true
                }
            case .held:
                tracks[i].state = .withheld
            default:
                break
            }
            tracks[i].samples.removeAll()
        }
        if cancelled { out.append(.sync) }
        tracks.removeAll { $0.lifted }
        lingerUntil = nil
    }

    private mutating func settleClaims(_ claims: some ContactClaims, out: inout [Output]) {
        var cancelled = false
        claims.drainClaims { id in
            guard let i = index(of: id) else { return }
            switch tracks[i].state {
            case .forwarding:
                guard rules.cancelsTouches else { return }
                if tracks[i].fresh {
                    tracks[i].state = .withheld
                } else {
                    if take(i, out: &out) { cancelled = true }
                }
            case .held:
                tracks[i].state = .withheld
                tracks[i].samples.removeAll()
            case .lingering where !tracks[i].taken:
                linger(i)
            case .cancelled, .withheld, .ending, .lingering:
                break
            }
        }
        // The palms go out in a frame of their own, before any release in this frame.
        if cancelled { out.append(.sync) }
    }

    private mutating func releaseUncontested(_ claims: some ContactClaims, out: inout [Output]) {
        // Motion kept back that no gesture can take any more: the app's touch catches up.
        for i in tracks.indices where tracks[i].state == .forwarding && tracks[i].frozen && !tracks[i].lifted
            && !claims.isContested(tracks[i].id) {
            catchUp(i, out: &out)
            out.append(.sync)
        }
        // A lift that waited for the arena and no gesture took: the app's, late.
        for i in tracks.indices where tracks[i].state == .lingering && !tracks[i].taken && !claims.isContested(tracks[i].id) {
            out.append(.lift(slot: tracks[i].slot))
            out.append(.sync)
            tracks[i].state = .cancelled
        }
        for i in tracks.indices where tracks[i].state == .held && !claims.isContested(tracks[i].id) {
            if tracks[i].fresh {
                tracks[i].state = .forwarding  // nothing kept back yet: its own events go out
                tracks[i].samples.removeAll()
            } else {
                deliver(i, out: &out, time: clock)
            }
        }
    }

    /// Writes a held contact's path, one frame per position, and goes on forwarding it.
    private mutating func deliver(_ i: Int, out: inout [Output], time: Double) {
        let slot = tracks[i].slot
        for (n, s) in tracks[i].samples.enumerated() {
            out.append(n == 0 ? .begin(slot: slot, x: s.x, y: s.y) : .move(slot: slot, x: s.x, y: s.y))
            out.append(.sync)
        }
        if let s = tracks[i].samples.last { tracks[i].appRaw = Point(x: Double(s.x), y: Double(s.y)) }
        tracks[i].downTime = time
        if tracks[i].lifted {
            out.append(.lift(slot: slot))
            out.append(.sync)
        }
        tracks[i].samples.removeAll()
        tracks[i].state = .forwarding
        tracks[i].replayed = true
    }

    /// Ends a taken contact the app has down, the way `rules.ending` says; `now` (a drop, the
    /// relay closing) lifts even a contact within the slop: the app must be consistent at once.
    /// Returns whether it wrote something (a frame to end).
    private mutating func take(_ i: Int, now: Bool = false, out: inout [Output]) -> Bool {
        switch rules.ending {
        case .cancel:
            out.append(.cancel(slot: tracks[i].slot))
        case .lift where now:
            out.append(.lift(slot: tracks[i].slot))
        case .lift where othersDown(i):
            linger(i)
            return false
        case .lift where tracks[i].beyondSlop && !tracks[i].frozen:  // frozen: the app's touch is where it was
            out.append(.lift(slot: tracks[i].slot))
        case .lift:
            // Still within the slop: a lift here would be a tap, and a touch left resting would
            // become the app's long press (Chromium's fires at 0.65 s, after gestured's 0.5 s).
            if let axis = rules.rawX {
                escape(i, axis, out: &out)
                return true
            }
            tracks[i].state = .ending
            return false
        }
        tracks[i].state = .cancelled
        return true
    }

    /// Whether the motion of the app's touch in `i` is kept back: it is one of the app's touches
    /// together and a gesture may still take it (ending `.lift`: a cancel is no zoom either).
    private func holdsMotion(_ i: Int, _ claims: some ContactClaims) -> Bool {
        rules.cancelsTouches && rules.ending == .lift && othersDown(i) && claims.isContested(tracks[i].id)
    }

    /// A touch whose motion was kept back moves for the app to where its finger is.
    private mutating func catchUp(_ i: Int, out: inout [Output]) {
        guard tracks[i].frozen else { return }
        tracks[i].frozen = false
        let p = tracks[i].lastRaw
        out.append(.move(slot: tracks[i].slot, x: Int32(p.x.rounded()), y: Int32(p.y.rounded())))
        tracks[i].appRaw = p
    }

    /// Whether the app has a touch down besides the one in `i` (its lift would not be the last).
    private func othersDown(_ i: Int) -> Bool {
        tracks.indices.contains { j in
            j != i && (tracks[j].state == .lingering || tracks[j].state == .ending
                       || tracks[j].state == .forwarding && !tracks[j].lifted && !tracks[j].fresh)
        }
    }

    /// A taken touch of a multi-finger sequence stays down for the app, still, until
    /// `multiTapSeconds` after the app's last touch came down (`lingerUntil`).
    private mutating func linger(_ i: Int) {
        tracks[i].state = .lingering
        tracks[i].taken = true
        var last = tracks[i].downTime
        // Not one that began in this frame: it may yet be held (`delayFingers`).
        for t in tracks where !t.fresh && (t.state == .lingering || t.state == .ending || t.state == .forwarding) {
            last = max(last, t.downTime)
        }
        lingerUntil = max(lingerUntil ?? last + Self.multiTapSeconds, last + Self.multiTapSeconds)
    }

    /// The lingering touches lift for the app: first those still within the slop all step
    /// beyond it together (one translation, in one frame: their spread stays, so no toolkit sees
    /// a pinch), then each lifts in a frame of its own.
    private mutating func endLingering(out: inout [Output]) {
        lingerUntil = nil
        let lingering = tracks.indices.filter { tracks[$0].state == .lingering }
        guard !lingering.isEmpty else { return }
        if let axis = rules.rawX {
            var sumX = 0.0, k = 0.0
            for i in lingering { sumX += tracks[i].appRaw.x }
            let s: Double = sumX / Double(lingering.count) < axis.centre ? 1 : -1
            // The least step along x that leaves every touch beyond the slop from its down.
            let r = (Self.liftSlopMM + 1) * axis.unitsPerMM
            for i in lingering {
                let d = tracks[i].appRaw - tracks[i].originRaw
                guard d.y * d.y < r * r else { continue }
                k = max(k, (r * r - d.y * d.y).squareRoot() - s * d.x)
            }
            if k > 0 {
                for i in lingering {
                    let p = tracks[i].appRaw
                    out.append(.move(slot: tracks[i].slot, x: Int32((p.x + s * k).rounded()), y: Int32(p.y.rounded())))
                }
                out.append(.sync)
            }
        }
        for i in lingering {
            out.append(.lift(slot: tracks[i].slot))
            out.append(.sync)
            tracks[i].state = .cancelled
        }
    }

    /// A taken contact still within the slop moved: the app sees the move; once beyond the slop,
    /// the contact lifts in a frame of its own (after the move, so the app's touch ends where it
    /// is a drag).
    private mutating func forwardEnding(_ i: Int, _ c: Contact, out: inout [Output]) {
        if tracks[i].lifted, !tracks[i].beyondSlop, let x = rules.rawX {
            escape(i, x, out: &out)
            return
        }
        out.append(.forward(slot: tracks[i].slot))
        tracks[i].appRaw = c.raw
        guard tracks[i].beyondSlop, !tracks[i].lifted else { return }
        out.append(.sync)
        out.append(.lift(slot: tracks[i].slot))
        tracks[i].state = .cancelled
    }

    /// The finger of a taken contact lifted within the slop: its release there would be a tap
    /// (or the long press it was), so the app's touch steps `liftSlopMM` + 1 mm from where it came
    /// down, along the device's x axis towards its middle, and lifts there: a short drag that
    /// ended, which no toolkit takes for a tap or a press.
    private mutating func escape(_ i: Int, _ axis: RawAxis, out: inout [Output]) {
        let o = tracks[i].originRaw
        let step = (Self.liftSlopMM + 1) * axis.unitsPerMM * (o.x < axis.centre ? 1 : -1)
        out.append(.move(slot: tracks[i].slot, x: Int32((o.x + step).rounded()), y: Int32(o.y.rounded())))
        out.append(.sync)
        out.append(.lift(slot: tracks[i].slot))
        tracks[i].state = .cancelled
    }

    private mutating func hold(_ i: Int, _ s: Sample) {
        if tracks[i].samples.count >= Self.maxHeldSamples {
            tracks[i].samples[tracks[i].samples.count - 1] = s
        } else {
            tracks[i].samples.append(s)
        }
    }

    /// Forgets contacts that are over for the app; the next step starts.
    private mutating func finishStep() {
        tracks.removeAll { $0.lifted && $0.state != .held && $0.state != .lingering }
        for i in tracks.indices {
            tracks[i].fresh = false
            tracks[i].replayed = false
        }
    }

    private func index(of id: Int32) -> Int? {
        tracks.firstIndex { $0.id == id }
    }

    /// Whether a contact beginning here is held back: a delay region or the edge band.
    private func delays(_ c: Contact, _ surface: Surface) -> Bool {
        for r in rules.delayRects where r.contains(c.position) { return true }
        if let d = rules.edgeDepthMM {
            return c.mm.x < d || c.mm.y < d || c.mm.x > surface.widthMM - d || c.mm.y > surface.heightMM - d
        }
        return false
    }
}
