import GestureKit

/// A device passed through to the app: every event read goes to the clone's buffer and to the
/// pipeline; once the arena has judged a frame, the relay decides what the app sees of it, and at
/// the frame's SYN_REPORT the clone writes that in one write(2).
public final class Passthrough {
    public let clone: TouchClone
    public private(set) var relay: TouchRelay
    private var outputs: [TouchRelay.Output] = []
    /// The last write error, reported once until writes work again.
    public private(set) var writeError: DeviceError?

    public init(clone: TouchClone, rules: TouchRelay.Rules) {
        self.clone = clone
        relay = TouchRelay(rules: rules)
        outputs.reserveCapacity(64)
    }

    /// One event read from the real device. Returns a write error the first time one happens.
    /// `touchDown` is asked at the first touch of a sequence; true: the app never sees that
    /// sequence (it woke a dark screen).
    @discardableResult
    public func feed(_ e: InputEvent, pipeline: DevicePipeline, touchDown: () -> Bool = { false },
                     onGesture: (GestureEvent) -> Void) -> DeviceError? {
        clone.record(e)
        let arena = pipeline.arena
        pipeline.feed(e, judged: { frame in
            if frame.startsSequence && touchDown() { self.relay.withholdSequence() }
            self.relay.frame(frame, claims: arena, out: &self.outputs)
        }, onGesture: onGesture)
        guard e.type == EV.SYN && e.code == SYN.REPORT else { return nil }
        return flush()
    }

    /// After the pipeline's timers ran: claims and failures may release or take held contacts.
    @discardableResult
    public func settle(pipeline: DevicePipeline) -> DeviceError? {
        relay.settle(claims: pipeline.arena, out: &outputs)
        return outputs.isEmpty ? nil : flush(frameEnded: false)
    }

    /// The kernel dropped events (SYN_DROPPED; the kernel does not pass one through uinput): the
    /// app's contacts are cancelled so that it is consistent again, then the pipeline resyncs.
    @discardableResult
    public func dropped(time: Double, slots: [SlotSnapshot], pipeline: DevicePipeline, onGesture: (GestureEvent) -> Void) -> DeviceError? {
        clone.discardPending()
        relay.drop(out: &outputs)
        let arena = pipeline.arena
        pipeline.dropped(time: time, slots: slots, onFrame: { frame in self.relay.frame(frame, claims: arena, out: &self.outputs) },
                         onGesture: onGesture)
        return flush()
    }

    /// Gestures are cancelled (reload, shutdown): so are the app's contacts.
    public func cancelForApp() {
        clone.discardPending()
        relay.drop(out: &outputs)
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

    @discardableResult
    private func flush(frameEnded: Bool = true) -> DeviceError? {
        defer { outputs.removeAll(keepingCapacity: true) }
        do {
            try clone.write(outputs, frameEnded: frameEnded)
            writeError = nil
            return nil
        } catch {
            let first = writeError == nil
            writeError = error
            return first ? error : nil
        }
    }
}
