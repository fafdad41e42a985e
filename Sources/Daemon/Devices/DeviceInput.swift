import Evdev
import GestureKit

/// What a session reads: a live device or a recording, held strongly for the session's life.
/// The per-wakeup paths reach it through `liveDevice` and `replay`, unretained views of the same
/// object (Borrowed), not retained for every wakeup (speed: docs/architecture.md).
///
/// Invariant: `liveDevice` and `replay` are views of `source`'s object and of nothing else; this
/// value holds that object as long as they can be used (it is the session's `let`).
struct DeviceInput {
    enum Source {
        case live(EvdevDevice)
        case recording(RecordingPlayer)
    }

    let source: Source
    /// The live device, for the read path (EvdevDevice.read without a retain).
    let liveDevice: Borrowed<EvdevDevice>?
    /// The recording, for the timer's `wake` (RecordingPlayer.wake without a retain).
    let replay: Borrowed<RecordingPlayer>?

    init(_ device: EvdevDevice) {
        source = .live(device)
        liveDevice = Borrowed(device)
        replay = nil
    }

    init(_ player: RecordingPlayer) {
        source = .recording(player)
        liveDevice = nil
        replay = Borrowed(player)
    }

    var device: EvdevDevice? {
        if case .live(let d) = source { return d }
        return nil
    }

    var player: RecordingPlayer? {
        if case .recording(let p) = source { return p }
        return nil
    }
}
