import Evdev
import GestureKit

/// The one line the daemon answers a command with, as a value: what the service did, encoded
/// here so that the socket and the fleet's broker get byte-for-byte the same replies.
enum ClientReply {
    /// `{"error":"…","ok":false}`: a malformed line, a command that cannot be carried out, or one
    /// this client may not give.
    case error(String)
    /// `{"ok":true,"subscribed":[…]}`; nil = every gesture (`"*"`).
    case subscribed([String]?)
    /// `{"ok":true,"recognizer":…,"enabled":…,"devices":[…]}`: the devices it changed on.
    case switched(recognizer: String, enabled: Bool, devices: [String])
    case status(ServiceStatus)
    /// `{"ok":true,"replaying":n}`: the recordings restarted.
    case replaying(Int)
    /// `{"ok":true,"mode":…}`: the mode now.
    case mode(String)

    var line: String {
        var w = JSONWriter()
        w.beginObject()
        switch self {
        case .error(let message):
            w.key("error"); w.string(message)
            w.key("ok"); w.bool(false)
        case .subscribed(let names):
            w.key("ok"); w.bool(true)
            w.strings("subscribed", names ?? ["*"])
        case .switched(let recognizer, let enabled, let devices):
            w.key("ok"); w.bool(true)
            w.key("recognizer"); w.string(recognizer)
            w.key("enabled"); w.bool(enabled)
            w.strings("devices", devices)
        case .status(let status):
            w.object("status", status.write)
        case .replaying(let count):
            w.key("ok"); w.bool(true)
            w.key("replaying"); w.int(count)
        case .mode(let name):
            w.key("ok"); w.bool(true)
            w.key("mode"); w.string(name)
        }
        w.endObject()
        return w.text
    }
}

/// What `{"status":true}` reports: the service's state at the moment of asking.
struct ServiceStatus {
    struct Device {
        var name: String
        var id: String
        /// The passthrough clone's node, when the device has one.
        var clone: String?
        var recognizers: [(name: String, enabled: Bool)]
        /// What gestured does to the touches before the app and the recognizers get them.
        var conditioning: TouchConditioning = TouchConditioning()
        /// A live device's latencies (DeviceLatency); a recording has none.
        var latency: DeviceLatency?
    }

    var version: String
    /// The configuration file in use.
    var config: String
    /// The kiosk's mode (`default` without `[[mode]]`).
    var mode: String
    /// Socket clients connected, bindings configured.
    var clients: Int, bindings: Int
    /// Bound commands still running, recordings still playing.
    var runningCommands: Int, replaying: Int
    /// The virtual keyboard and pointer `keys` and `click` bindings write to, once made.
    var virtualDevices: [(role: VirtualOutputs.Role, device: UInputDevice)]
    /// The link to the fleet's broker, when `[mqtt]` asks for one.
    var fleet: (topic: String, counters: MQTTLink.Counters)?
    var devices: [Device]
    /// Clones whose panel went, waiting for its return (CloneKeeper): the panel's name, the
    /// clone's node, the seconds it still waits.
    var keptClones: [(panel: String, clone: String, remainingS: Double)] = []

    /// The members of the `status` object.
    func write(_ w: inout JSONWriter) {
        w.key("version"); w.string(version)
        w.key("config"); w.string(config)
        w.key("mode"); w.string(mode)
        w.key("clients"); w.int(clients)
        w.key("bindings"); w.int(bindings)
        w.key("running_commands"); w.int(runningCommands)
        w.key("replaying"); w.int(replaying)
        w.objects("virtual_devices", virtualDevices) { w, v in
            w.key("role"); w.string(v.role.rawValue)
            w.key("name"); w.string(v.device.name)
            w.key("devnode"); w.string(v.device.devnode)
            w.key("syspath"); w.string(v.device.syspath)
        }
        if let (topic, c) = fleet {
            w.object("mqtt") { w in
                w.key("topic"); w.string(topic)
                w.key("connected"); w.bool(c.connected)
                w.key("queued"); w.int(c.queued)
                w.key("dropped"); w.int(c.dropped)
                w.key("published"); w.int(c.published)
            }
        }
        w.objects("kept_clones", keptClones) { w, k in
            w.key("panel"); w.string(k.panel)
            w.key("clone"); w.string(k.clone)
            w.key("remaining_s"); w.int(Int(k.remainingS.rounded(.up)))
        }
        w.objects("devices", devices) { w, d in
            w.key("name"); w.string(d.name)
            w.key("id"); w.string(d.id)
            w.key("passthrough"); w.bool(d.clone != nil)
            if let clone = d.clone { w.key("clone"); w.string(clone) }
            w.object("conditioning") { d.conditioning.write(&$0) }
            if let l = d.latency { w.object("latency") { l.write(&$0) } }
            w.objects("recognizers", d.recognizers) { w, r in
                w.key("name"); w.string(r.name)
                w.key("enabled"); w.bool(r.enabled)
            }
        }
    }
}
