import GestureKit

/// Who hears a continuous gesture's `changed` events: a `changed` comes with every touch frame,
/// and building one nobody takes is most of a frame's work. A gesture's changes are heard when
/// a binding or an MQTT publish filter takes its `changed` phase, or a socket client wants it
/// (a client that did not subscribe wants everything). The secret sequences take only
/// `recognized` and `ended`. Every session is told again when that can change: a client comes,
/// goes or subscribes, the config is reloaded, the fleet starts, a device opens.
extension GestureService {
    var heardChanges: Set<GestureKind> {
        var heard = hub.heardGestures
        for b in config.bindings where b.phases.contains(.changed) { heard.insert(b.gesture) }
        for f in fleet?.filters ?? [] where f.phases.contains(.changed) { heard.insert(f.gesture) }
        return heard
    }

    func hearChanges() {
        let heard = heardChanges
        for s in devices.sessions where s.heardChanges != heard { s.heardChanges = heard }
    }
}
