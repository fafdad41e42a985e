import GestureKit

/// A device passed through to the app, as its pipeline's stage (DevicePipeline.stage), in the
/// daemon as in the bench: every event read goes to the clone's buffer (`record`), the relay
/// decides from the arena's claims what the app sees of each judged frame, and at the frame's
/// SYN_REPORT the clone writes that in one write(2) (`frameEnded`). A frame whose outcome the arena cannot change (the lift
/// of the app's touches: TouchRelay.decidesWithoutArena) is written before the arena judges it:
/// the clone never waits for the shapes decided at lift.
public final class Passthrough: FrameStage {
    public let clone: TouchClone
    public private(set) var relay: TouchRelay
    private var outputs: [TouchRelay.Output] = []
    /// The last write error, reported once until writes work again.
    public private(set) var writeError: DeviceError?
    /// From each frame's kernel time to its write returning (the clone's added latency, `status`).
    public private(set) var latency = LatencyHistogram()
    /// The frame being read was written before the arena judged it: its SYN_REPORT writes no more.
    private var writtenEarly = false
    /// A write error of that frame (or of what the arena's verdict on it wrote), for its SYN_REPORT.
    private var earlyError: DeviceError?
    /// A write error met inside a feed, the first time writes failed, until the reader takes it
    /// to log it (`takeFailure`): the pipeline has no log.
    private var failure: DeviceError?

    public init(clone: TouchClone, rules: TouchRelay.Rules) {
        self.clone = clone
        relay = TouchRelay(rules: rules)
        outputs.reserveCapacity(64)
    }

    /// One event read from the real device, before the pipeline takes it.
    public func record(_ e: InputEvent) {
        clone.record(e)
    }

    public func judged(_ frame: borrowing TouchFrame, arena: GestureArena) {
        // A frame after one written early (the ghost quarantine's second of one read frame)
        // is written at the SYN_REPORT.
        writtenEarly = false
        // Two frames judged from one read frame (the ghost quarantine showing a held contact
        // first): each is a frame of its own for the app.
        if let last = outputs.last, last != .sync { outputs.append(.sync) }
        relay.frame(frame, claims: arena, out: &outputs)
    }

    public func judgedBeforeArena(_ frame: borrowing TouchFrame) -> Bool {
        guard outputs.isEmpty, relay.decidesWithoutArena(frame) else { return false }
        relay.frame(frame, claims: TouchRelay.NoClaims(), out: &outputs)
        earlyError = flush(frameTime: frame.time)
        writtenEarly = true
        return true
    }

    public func arenaJudged(_ arena: GestureArena) {
        relay.settle(claims: arena, out: &outputs)
        guard !outputs.isEmpty, let e = flush(frameEnded: false) else { return }
        earlyError = earlyError ?? e
    }

    /// The sequence just begun is not the app's (its first touch woke a dark screen).
    public func withholdSequence() {
        relay.withholdSequence()
    }

    /// The frame's SYN_REPORT, after the pipeline judged it: the frame goes to the app.
    public func frameEnded(_ report: InputEvent) {
        guard writtenEarly else { return failed(flush(frameTime: report.time)) }
        writtenEarly = false
        failed(earlyError)
        earlyError = nil
    }

    /// The resynchronized contacts were judged (after `dropped`): the app's view goes out.
    public func resynchronized() {
        failed(flush())
    }

    private func failed(_ error: DeviceError?) {
        if let error, failure == nil { failure = error }
    }

    /// The write error met inside the feeds since the last call, once (the first time writes
    /// failed; `writeError` says whether they still do).
    public func takeFailure() -> DeviceError? {
        defer { failure = nil }
        return failure
    }

    /// After the pipeline's timers ran: claims and failures may release or take held contacts,
    /// and lingering touches may be due (`now`, the clock of the frames' times).
    @discardableResult
    public func settle(arena: GestureArena, now: Double) -> DeviceError? {
        relay.settle(claims: arena, now: now, out: &outputs)
        return outputs.isEmpty ? nil : flush(frameEnded: false)
    }

    /// When `settle` must run next (the relay's lingering touches lift), if ever.
    public var deadline: Double? { relay.deadline }

    /// The kernel dropped events (SYN_DROPPED; the kernel does not pass one through uinput): the
    /// app's contacts are cancelled so that it is consistent again; the pipeline then resyncs,
    /// and `resynchronized` writes the result.
    public func dropped() {
        clone.discardPending()
        relay.drop(out: &outputs)
    }

    /// Gestures are cancelled (reload, shutdown): so are the app's contacts.
    public func cancelForApp() {
        clone.discardPending()
        relay.drop(out: &outputs)
        flush()
    }

    /// The panel went away: the app's touches end as taken ones do, never as a tap (a resting
    /// finger did not lift: TouchRelay.drop's `neverATap`), in frames with their SYN_REPORT; the
    /// clone stays.
    public func panelGone() {
        clone.discardPending()
        relay.drop(neverATap: true, out: &outputs)
        flush()
    }

    /// Whether the app gets touches (a kiosk mode's `passthrough`): closing cancels the ones it has.
    public func setAppTouches(_ on: Bool) {
        guard on == relay.isClosed else { return }
        if on {
            relay.open()
        } else {
            relay.close(out: &outputs)
            flush(frameEnded: false)
        }
    }

    /// New rules (reload): the app's contacts are cancelled, the clone stays.
    public func restart(rules: TouchRelay.Rules) {
        cancelForApp()
        relay = TouchRelay(rules: rules)
    }

    /// Passthrough ends (reload, unplug): the app's contacts are cancelled, then the clone removed.
    public func end() {
        if clone.isAlive { cancelForApp() }
        clone.destroy()
    }

    /// Writes what the relay decided; a write error is returned the first time it happens.
    /// `frameTime`: the kernel time of the frame this ends, whose latency is recorded.
    @discardableResult
    public func flush(frameEnded: Bool = true, frameTime: Double? = nil) -> DeviceError? {
        defer { outputs.removeAll(keepingCapacity: true) }
        do {
            try clone.write(outputs, frameEnded: frameEnded)
            writeError = nil
            if let t = frameTime { latency.record(seconds: MonotonicClock.now() - t) }
            return nil
        } catch {
            let first = writeError == nil
            writeError = error
            return first ? error : nil
        }
    }
}
