import Evdev
import GestureKit

/// One gesture on its way out of a device session: the event, its device, and its JSON line,
/// encoded the first time a sink asks for it and then shared by every other sink.
/// The event and the device are borrowed for the call that hands the gesture to the sinks
/// (`GestureService.deliver`), read in place, not copied into each gesture with its strings'
/// retains and releases (speed: docs/architecture.md).
/// Not copyable, so that no sink can keep it past its `take`.
struct OutgoingGesture: ~Copyable {
    private let eventAddress: UnsafePointer<GestureEvent>
    private let deviceAddress: UnsafePointer<DeviceLabel>
    private var encoded: String?

    /// Valid while `event` and `device` are: within the call that makes it.
    init(_ event: UnsafePointer<GestureEvent>, device: UnsafePointer<DeviceLabel>) {
        eventAddress = event
        deviceAddress = device
    }

    var event: GestureEvent { unsafeAddress { eventAddress } }
    var device: DeviceLabel { unsafeAddress { deviceAddress } }

    var json: String {
        mutating get {
            if let j = encoded { return j }
            let j = event.json(device: device)
            encoded = j
            return j
        }
    }
}

/// Takes each gesture the devices produce: the socket clients (SocketHub), the bound commands
/// (ActionRunner), the secret sequences (the service's modes) and the fleet (Fleet).
protocol GestureSink: AnyObject {
    func take(_ g: inout OutgoingGesture)
}

extension ActionRunner: GestureSink {
    func take(_ g: inout OutgoingGesture) {
        guard concerns(g.event.kind) else { return }
        handle(g.event, device: g.device, now: MonotonicClock.now())
    }
}
