import Evdev
import GestureKit

/// One device the daemon runs gestures for, live or recorded. The service drives every source
/// the same way: readable fd → `readable`, timer → `wake`; reload → `rebuild`.
protocol DeviceSource: AnyObject {
    var pipeline: DevicePipeline { get }
    /// Recognizers a client disabled on this device; they stay disabled across reloads.
    var disabled: Set<String> { get set }
    /// Asked at the first touch of each sequence (set by the service); true: the app gets none
    /// of the sequence (it woke a dark screen).
    var touchDown: () -> Bool { get set }
    /// When the source next needs `wake` (monotonic seconds), or nil.
    var wakeTime: Double? { get }
    /// `.gone`: the device went away while it was read (a live source reads in `wake` when it
    /// coalesces); the service closes it.
    func wake(now: Double, emit: (GestureEvent) -> Void) -> SourceStatus
    /// A new pipeline from a new config: in-flight gestures are cancelled first.
    func rebuild(config: DaemonConfig, now: Double, emit: (GestureEvent) -> Void)
    /// Cancels what is in flight (shutdown).
    func cancel(now: Double, emit: (GestureEvent) -> Void)
}

/// Whether a source can still be read after a read or a wake-up.
enum SourceStatus { case open, gone }

extension DeviceSource {
    var label: DeviceLabel { pipeline.label }

    /// Each recognizer the device runs, and whether it is enabled (for `status` and the fleet).
    var recognizers: [(name: String, enabled: Bool)] {
        let arena = pipeline.arena
        return arena.recognizers.map { ($0.name, arena.isEnabled($0.name)) }
    }
}

extension DeviceInfo {
    /// What the config matches a device on.
    var identity: DeviceIdentity {
        let kind: DeviceKindName? = switch self.kind {
        case .touchscreen: .touchscreen
        case .touchpad: .touchpad
        case .other: nil
        }
        return DeviceIdentity(name: name, id: id, vendor: vendor, product: product, kind: kind, properties: properties)
    }
}
