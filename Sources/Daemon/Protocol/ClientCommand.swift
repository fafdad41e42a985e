import GestureKit

/// One command line a client may send (one JSON object per line):
/// `{"subscribe":["circle","pan"]}`, `{"enable":"circle","device":"Wacom*"}`,
/// `{"disable":"circle"}`, `{"status":true}`, `{"replay":true}`, `{"mode":"maintenance"}`.
public enum ClientCommand: Equatable {
    /// nil = every gesture again.
    case subscribe([String]?)
    case setEnabled(recognizer: String, enabled: Bool, device: String?)
    case status
    case replay
    /// Switches the kiosk's mode.
    case mode(String)

    /// Whether it changes what the kiosk does (only root and the control group may: ControlPolicy),
    /// rather than what the client hears.
    public var controls: Bool {
        switch self {
        case .subscribe, .status: false
        case .setEnabled, .replay, .mode: true
        }
    }

    public struct ParseError: Error { public var message: String }

    public static func parse(_ line: String) -> Result<ClientCommand, ParseError> {
        let value: JSONValue
        do {
            value = try JSONReader.parse(line)
        } catch {
            return .failure(ParseError(message: "expected one JSON object per line (\(error))"))
        }
        guard let obj = value.object else { return .failure(ParseError(message: "expected one JSON object per line")) }
        let device = obj["device"]
        if let device, device.string == nil { return .failure(ParseError(message: "\"device\" must be a string (a name or glob)")) }
        let keys = Set(obj.keys).subtracting(["device"])
        guard keys.count == 1, let key = keys.first else {
            return .failure(ParseError(message: "expected exactly one of subscribe, enable, disable, status, replay, mode"))
        }
        switch key {
        case "subscribe":
            if let s = obj[key]?.string, s == "*" || s == "all" { return .success(.subscribe(nil)) }
            guard let names = obj[key]?.strings else { return .failure(ParseError(message: "\"subscribe\" takes an array of gesture names, or \"*\"")) }
            return .success(.subscribe(names.contains("*") ? nil : names))
        case "enable", "disable":
            guard let name = obj[key]?.string else { return .failure(ParseError(message: "\"\(key)\" takes a recognizer name")) }
            return .success(.setEnabled(recognizer: name, enabled: key == "enable", device: device?.string))
        case "status": return .success(.status)
        case "replay": return .success(.replay)
        case "mode":
            guard let name = obj[key]?.string else { return .failure(ParseError(message: "\"mode\" takes a mode's name")) }
            return .success(.mode(name))
        default: return .failure(ParseError(message: "unknown command \"\(key)\" (known: subscribe, enable, disable, status, replay, mode)"))
        }
    }
}
