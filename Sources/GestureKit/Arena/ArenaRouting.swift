/// Which live recognizers of an arena are handed a frame, and in which round: all of them, minus
/// those a rule below says the frame cannot change. The rules, in one place, each with its
/// reason; `route` applies them in this order, and nothing else keeps a frame from a live
/// recognizer.
///
/// 1. **One finger so far** (`multiContact`): a MultiContactRecognizer (pinch, rotate) is not
///    handed a frame of a sequence in which one contact alone has appeared and is still down.
///    Why: such a frame changes nothing of a two-finger gesture; the finger's lift, which fails
///    it, it is handed. It still notes the contact (a winner takes what it saw).
/// 2. **The lone finger's stroke** (`liftDeciders`, `liftStroke`): a DecidedAtLift shape (circle,
///    checkmark, taught shapes) is not handed a frame that only moves the sequence's one finger;
///    the arena offers that frame's sample to the stroke the shapes follow (SharedStroke.offer,
///    the one way a stroke grows) instead. Why: the shape decides at lift, and such a frame
///    changes nothing of it but that stroke (asserted per skipped frame in debug builds:
///    DecidedAtLift.onlyGrowsStroke).
/// 3. **Finished until restart** (`skipsFinished`): a recognizer that reported a finished state
///    (RecognizerState.isFinished) is handed only the frames that cancel a contact until it
///    restarts; it notes the contacts of the others. Why: a finished recognizer ignores frames
///    until `reset`, but a winner's cancellation still moves its standing.
///
/// Only entries that see whole frames (no excluded region) are routed. The rules are an
/// optimization, never a change of what is recognized: with them off (`isOn` false, every live
/// entry is handed every frame) every fixture gives the same gestures (ArenaRoutingTests).
///
/// Besides the rules, the rounds: the sequence's group (FrameContext) takes the frame after the
/// timers (a long press recognized at its deadline reads the group as it was) and before its
/// readers handle it. A frame that cancels a contact cancels every entry but the carried ones:
/// the carried readers' `cancelled` reads the group without the frame (their own groups never
/// took it), so the group takes it after the first round and they handle it in a second.
struct ArenaRouting {
    let isOn: Bool
    let multiContact: EntrySet
    let liftDeciders: EntrySet
    /// The stroke the `liftDeciders` follow. Unretained: those recognizers, which the arena owns
    /// for its life, hold it (speed: docs/architecture.md).
    let liftStroke: Borrowed<SharedStroke>?
    /// The GroupReaders that see whole frames: they read the arena's context.
    let groupReaders: EntrySet
    /// The entries with an excluded region, which see frames through their RegionFilter.
    let filtered: EntrySet
    var skipsFinished: Bool { isOn }
    init(_ entries: [ArenaEntry], on: Bool) {
        isOn = on
        var multi = EntrySet(), deciders = EntrySet(), readers = EntrySet(), withRegions = EntrySet()
        var stroke: SharedStroke? = nil
        for e in entries {
            guard e.regionFilter.hidesNothing else {
                withRegions.set(e.index, true)
                continue
            }
            if e.recognizer is any GroupReader { readers.set(e.index, true) }
            guard on else { continue }
            if e.recognizer is any MultiContactRecognizer { multi.set(e.index, true) }
            guard let r = e.recognizer as? any DecidedAtLift else { continue }
            // Shapes built with another context follow another stroke: they are fed as usual.
            guard stroke == nil || stroke === r.followedStroke else { continue }
            stroke = r.followedStroke
            deciders.set(e.index, true)
        }
        multiContact = multi
        liftDeciders = deciders
        liftStroke = stroke.map(Borrowed.init)
        groupReaders = readers
        filtered = withRegions
    }

    /// Who is handed `frame`, and in which round (the rules above, in order), of the entries
    /// `standings` says are live.
    @inline(__always)
    func route(_ frame: TouchFrame, _ facts: FrameFacts, _ standings: StandingSets) -> ArenaRoute {
        let live = standings.live
        var r = ArenaRoute(first: live)
        if facts.oneContactSoFar && facts.down == 1 {
            // Rule 1, one finger so far (and no cancellation: it is down).
            r.oneFingerSkipped = live.intersection(multiContact)
            r.first = r.first.subtracting(r.oneFingerSkipped)
            r.groupUnread = r.oneFingerSkipped.intersection(groupReaders)
            // Rule 2: no contact new to the sequence: the frame only moves its one finger.
            if !facts.bringsContact && r.first.intersects(liftDeciders) {
                r.strokeOnly = r.first.intersection(liftDeciders)
                r.first = r.first.subtracting(r.strokeOnly)
            }
        }
        if !facts.cancels {
            // Rule 3: the finished entries are not handed a frame that cancels nothing.
            if facts.bringsContact { r.finishedNoting = r.first.intersection(standings.finished) }
            r.first = r.first.subtracting(standings.finished)
        }
        if groupReaders.intersects(live) {
            if facts.cancels {
                r.second = r.first.intersection(standings.carried).intersection(groupReaders)
                r.first = r.first.subtracting(r.second)
                r.groupTakes = .afterFirstRound
            } else {
                r.groupTakes = facts.isLoneMove ? .loneMove : .frame
            }
        }
        if frame.contacts.isEmpty {
            // Nobody is handed an empty frame; the readers' group takes it all the same.
            r.groupUnread.formUnion(live.intersection(groupReaders))
            r.first = EntrySet()
            r.second = EntrySet()
        }
        r.wholeAndQuiet = !facts.cancels && !facts.bringsContact && !r.first.intersects(filtered)
        return r
    }
}

/// Who is handed one frame (ArenaRouting.route).
struct ArenaRoute {
    /// Handed the frame, in priority order.
    var first: EntrySet
    /// Handed it after the group took it (a cancelling frame's carried readers).
    var second = EntrySet()
    /// Not handed it (rule 1): they note its new contacts.
    var oneFingerSkipped = EntrySet()
    /// Not handed it (rule 2): its sample goes into the stroke they follow (`liftStroke`).
    var strokeOnly = EntrySet()
    /// Finished, not handed it (rule 3): they note its new contacts.
    var finishedNoting = EntrySet()
    /// Readers whose group took a frame they were not handed: their deadlines may have moved.
    var groupUnread = EntrySet()
    /// When the sequence's group takes the frame.
    var groupTakes = GroupTake.never
    /// Every entry of `first` sees the frame whole and has nothing to note or cancel (most frames).
    var wholeAndQuiet = false

    init(first: EntrySet) { self.first = first }

    enum GroupTake {
        /// No reader is live: none reads the group again before it is cleared (the live entries
        /// only lose members within a sequence).
        case never
        case frame
        /// `FrameContext.takeLoneMove`: the frame only moves the group's one contact.
        case loneMove
        /// After the first round, before the second.
        case afterFirstRound
    }
}
