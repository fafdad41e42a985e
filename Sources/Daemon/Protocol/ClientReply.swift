import GestureKit

/// The one line the daemon answers a command with, as a value: what the service did, encoded
/// here so that the socket and the fleet's broker get byte-for-byte the same replies.
enum ClientReply {
    /// `{"error":"…"}`: a malformed line or a command that cannot be carried out.
    case error(String)
    /// `{"ok":true,"subscribed":[…]}`; nil = every gesture (`"*"`).
    case subscribed([String]?)
    /// `{"ok":true,"recognizer":…,"enabled":…,"devices":[…]}`: the devices it changed on.
    case switched(recognizer: String, enabled: Bool, devices: [String])
    case status(ServiceStatus)
    /// `{"ok":true,"replaying":n}`: the recordings restarted.
    case replaying(Int)

    var line: String {
        var w = JSONWriter()
        w.beginObject()
        switch self {
        case .error(let message):
            w.key("error"); w.string(message)
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
        }
        w.endObject()
        return w.text
    }
}

/// What `{"status":true}` reports: the service's state at the moment of asking.
struct ServiceStatus {
    struct VirtualDevice {
        var role: String
        var name: String
        var devnode: String
        var syspath: String
    }

    struct Fleet {
        var topic: String
        var connected: Bool
        var queued: Int
        var dropped: Int
        var published: Int
    }

    struct Device {
        var name: String
        var id: String
        /// The passthrough clone's node, when the device has one.
        var clone: String?
        var recognizers: [(name: String, enabled: Bool)]
    }

    var version: String
    var config: String
    var clients: Int
    var bindings: Int
    var runningCommands: Int
    var replaying: Int
    var virtualDevices: [VirtualDevice]
    var fleet: Fleet?
    var devices: [Device]

    /// The members of the `status` object.
    func write(_ w: inout JSONWriter) {
        w.key("version"); w.string(version)
        w.key("config"); w.string(config)
        w.key("clients"); w.int(clients)
        w.key("bindings"); w.int(bindings)
        w.key("running_commands"); w.int(runningCommands)
        w.key("replaying"); w.int(replaying)
        w.objects("virtual_devices", virtualDevices) { w, d in
            w.key("role"); w.string(d.role)
            w.key("name"); w.string(d.name)
            w.key("devnode"); w.string(d.devnode)
            w.key("syspath"); w.string(d.syspath)
        }
        if let f = fleet {
            w.object("mqtt") { w in
                w.key("topic"); w.string(f.topic)
                w.key("connected"); w.bool(f.connected)
                w.key("queued"); w.int(f.queued)
                w.key("dropped"); w.int(f.dropped)
                w.key("published"); w.int(f.published)
            }
        }
        w.objects("devices", devices) { w, d in
            w.key("name"); w.string(d.name)
            w.key("id"); w.string(d.id)
            w.key("passthrough"); w.bool(d.clone != nil)
            if let clone = d.clone { w.key("clone"); w.string(clone) }
            w.objects("recognizers", d.recognizers) { w, r in
                w.key("name"); w.string(r.name)
                w.key("enabled"); w.bool(r.enabled)
            }
        }
    }
}
