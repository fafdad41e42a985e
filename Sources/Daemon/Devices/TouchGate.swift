/// Told the first touch of each sequence on any device, inside its frame (the pipeline's stage).
/// The modes answer (ModeControl): they record the touch, and what it causes runs after the
/// wakeup, with the other deliveries.
protocol TouchGate: AnyObject {
    /// `answerNow`: the device is passed through, and its clone must know at once whether the app
    /// gets the sequence. True: it does not (the touch woke a dark screen).
    func firstTouch(answerNow: Bool) -> Bool
}
