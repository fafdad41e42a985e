import Evdev
import GestureKit

/// One gesture on its way out of a device session: the event, its device, and its JSON line,
/// encoded the first time a sink asks for it and then shared by every other sink.
struct OutgoingGesture {
    let event: GestureEvent
    let device: DeviceLabel
    private var encoded: String?

    init(_ event: GestureEvent, device: DeviceLabel) {
        self.event = event
        self.device = device
    }

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
        handle(g.event, device: g.device, now: MonotonicClock.now())
    }
}
