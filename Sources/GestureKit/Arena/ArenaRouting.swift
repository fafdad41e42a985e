/// Which live recognizers of an arena are handed a frame: all of them, minus those a rule below
/// says the frame cannot change. The rules, in one place, each with its reason; GestureArena.handle
/// applies them in this order, and nothing else keeps a frame from a live recognizer.
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
struct ArenaRouting {
    let isOn: Bool
    let multiContact: EntrySet
    let liftDeciders: EntrySet
    /// The stroke the `liftDeciders` follow. Unretained: those recognizers, which the arena owns
    /// for its life, hold it (a retained one cost ~40 instructions a frame in retain and release).
    let liftStroke: Unmanaged<SharedStroke>?
    var skipsFinished: Bool { isOn }

    init(_ entries: [ArenaEntry], on: Bool) {
        isOn = on
        var multi = EntrySet(), deciders = EntrySet()
        var stroke: SharedStroke? = nil
        for e in entries where on && e.regionFilter.hidesNothing {
            if e.recognizer is any MultiContactRecognizer { multi.set(e.index, true) }
            guard let r = e.recognizer as? any DecidedAtLift else { continue }
            // Shapes built with another context follow another stroke: they are fed as usual.
            guard stroke == nil || stroke === r.followedStroke else { continue }
            stroke = r.followedStroke
            deciders.set(e.index, true)
        }
        multiContact = multi
        liftDeciders = deciders
        liftStroke = stroke.map { Unmanaged.passUnretained($0) }
    }
}
