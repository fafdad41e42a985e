/// Told the first touch of each sequence on a device, inside its frame (DevicePipeline.gate): the
/// daemon's modes (ModeControl) record it, and what it causes runs after the wakeup. A class, not
/// a protocol, so that a pipeline holds it as it holds its other parts, by Borrowed (which holds
/// classes; a protocol's existential is not one).
open class TouchGate {
    public init() {}

    /// `answerNow`: the device is passed through, and its clone must know at once whether the app
    /// gets the sequence. True: it does not (the touch woke a dark screen).
    open func firstTouch(answerNow: Bool) -> Bool { false }
}
