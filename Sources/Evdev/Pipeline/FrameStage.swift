import GestureKit

/// What a pipeline's frames go through after the arena: passthrough (Passthrough), in the daemon
/// as in the bench. The pipeline walks a read once: each event to `record`, each completed frame
/// to the arena and `judged`, each SYN_REPORT to `frameEnded` after that.
public protocol FrameStage: AnyObject {
    /// One event read from the device, before the tracker takes it (the clone's copy of the frame).
    func record(_ e: InputEvent)
    /// A frame before the arena handles it: true when the stage judged it already, its outcome
    /// not depending on the arena's verdict on it (passthrough's lift: the clone does not wait
    /// for the recognizers); the arena's verdict then comes to `arenaJudged`, not `judged`.
    func judgedBeforeArena(_ frame: borrowing TouchFrame) -> Bool
    /// After the arena handled a frame the stage judged before it (claims it made may end or
    /// release other contacts).
    func arenaJudged(_ arena: GestureArena)
    /// A frame the arena has handled.
    func judged(_ frame: borrowing TouchFrame, arena: GestureArena)
    /// The sequence whose first frame comes next to `judged` is not the app's (the pipeline's
    /// TouchGate said so: its first touch woke a dark screen).
    func withholdSequence()
    /// A frame's SYN_REPORT, once the frames it completed were judged: the app's frame goes out.
    func frameEnded(_ report: InputEvent)
    /// Events were dropped (SYN_DROPPED): what the stage holds of the contacts is void, before the
    /// contacts are resynchronized (their frames then come to `judged`, then `resynchronized`).
    func dropped()
    /// The resynchronized contacts were judged: what the stage decided of them goes out.
    func resynchronized()
}
