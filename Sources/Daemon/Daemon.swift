/// The gestured service: configuration, event loop, socket hub, actions and systemd glue.
/// Each piece lives in its own file in this folder.
public enum DaemonInfo {
    public static let version = "0.1.0"
}
