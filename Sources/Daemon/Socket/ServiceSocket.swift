import Glibc
import Logging

extension UnixListener {
    /// The socket path: --socket, then the config, then the default for who we run as.
    public static func defaultSocketPath(environment: [String: String]) -> String {
        if getuid() != 0, let dir = environment["XDG_RUNTIME_DIR"], !dir.isEmpty { return dir + "/gestured.sock" }
        return "/run/gestured/gestured.sock"
    }

    /// The daemon's socket: the one systemd passed (socket activation), else bound at `path`
    /// (--socket), the config's, or the default, with the config's mode and group.
    static func forService(path: String?, config: SocketConfig, environment: [String: String], log: Logger) throws -> UnixListener {
        if let fd = SocketActivation.listeningSocket(environment: environment) {
            log.info("using the socket passed by systemd")
            return UnixListener(adopting: fd)
        }
        let path = path ?? config.path ?? defaultSocketPath(environment: environment)
        let dir = FileSystem.directory(of: path)
        if !dir.isEmpty { FileSystem.createDirectories(dir) }
        let listener = try UnixListener(path: path, mode: config.mode, group: config.group)
        log.info("listening on \(path) (mode \(String(config.mode, radix: 8)))")
        return listener
    }
}
