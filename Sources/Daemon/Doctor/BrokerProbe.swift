import CMosquitto
import Evdev
import GestureKit
import Glibc

/// Whether the broker of `[mqtt]` accepts gestured: one connection with the config's address,
/// TLS and credentials (under a client id of its own, so the running daemon's session is left
/// alone), given at most `timeout` seconds, then closed.
public enum BrokerProbe {
    /// nil when the broker accepted the connection; otherwise why not.
    public static func refusal(_ config: MQTTConfig, timeout: Double) -> String? {
        mosquitto_lib_init()
        let outcome = Outcome()
        guard let m = mosquitto_new("gestured-doctor-\(getpid())", true, Borrowed(outcome).address) else {
            return "cannot make an MQTT client (mosquitto_new)"
        }
        defer { mosquitto_destroy(m) }
        if let u = config.username, mosquitto_username_pw_set(m, u, config.password) != MOSQ_ERR_SUCCESS.rawValue {
            return "username rejected by libmosquitto"
        }
        if config.tls {
            let rc = mosquitto_tls_set(m, config.caFile, nil, config.certFile, config.keyFile, nil)
            if rc != MOSQ_ERR_SUCCESS.rawValue { return "TLS files (ca_file, cert_file, key_file): \(describe(rc))" }
        }
        mosquitto_connect_callback_set(m) { _, obj, rc in Borrowed<Outcome>.object(at: obj!).connack = rc }
        let deadline = MonotonicClock.now() + timeout
        var rc = mosquitto_connect_async(m, config.host, Int32(config.port), 10)
        while rc == MOSQ_ERR_SUCCESS.rawValue, outcome.connack == nil, MonotonicClock.now() < deadline {
            rc = mosquitto_loop(m, 100, 1)
        }
        if let connack = outcome.connack {
            mosquitto_disconnect(m)
            _ = mosquitto_loop(m, 100, 1)
            return connack == 0 ? nil : String(cString: mosquitto_connack_string(connack))
        }
        if rc != MOSQ_ERR_SUCCESS.rawValue { return describe(rc) }
        return "no answer within \(DecimalText.string(timeout, places: 1)) s"
    }

    /// Filled by the connect callback, which runs inside `mosquitto_loop` on this thread.
    private final class Outcome {
        var connack: Int32?
    }

    private static func describe(_ rc: Int32) -> String {
        rc == MOSQ_ERR_ERRNO.rawValue ? Errno.current.description : String(cString: mosquitto_strerror(rc))
    }
}
