/// `[socket]`: where clients connect and who may.
public struct SocketConfig: Sendable, Equatable {
    /// nil: `/run/gestured/gestured.sock` as root, `$XDG_RUNTIME_DIR/gestured.sock` otherwise.
    public var path: String?
    /// File mode of the socket: together with the group, the access control.
    public var mode: UInt32 = 0o660
    public var group: String?
    /// Who may control (switch modes, disable and enable recognizers, replay) besides root:
    /// members of this group. Every other client that can connect only listens (`ControlPolicy`).
    public var controlGroup: String?
    public var maxClients: Int = 32
    /// Slots one non-root user may hold (a quarter of the default 32), so one user's clients
    /// cannot take every slot (root is not limited).
    public var maxClientsPerUser: Int = 8
    /// Lines one client may send per second (blank ones too); past it the client is dropped.
    /// Far above a controller's or a script's pace (a test's 300 reloads with two requests each
    /// run at a few hundred a second), far below what a flood sends: 16 KiB of blank lines, one
    /// wakeup's read, is 16,384 lines.
    public var linesPerSecond: Int = 1000
    /// Bytes of output queued for one client before it is dropped as too slow.
    public var clientBufferBytes: Int = 256 * 1024
    /// Seconds a client may take to finish a line it started before it is dropped (a client
    /// that sends half a command and stalls would otherwise hold its slot forever).
    public var lineTimeout: Double = 5
    /// Seconds after which a client that has sent no line at all may lose its slot to a new
    /// client when every slot is taken: idle connections cannot lock the app out.
    public var idleTimeout: Double = 10

    public init() {}

    /// The longest socket path: sun_path holds 107 bytes and a NUL, and the socket is bound
    /// first at `path.<pid>.new` (up to 12 bytes more) before it is renamed into place.
    public static let maxPathBytes = 107 - 12
}

extension SocketConfig: SettingTable {
    public static let settings: [Setting<SocketConfig>] = [
        Setting("path", once: \.path, type: "an absolute path", "Where clients connect.",
                read: { t, _, _ in
                    guard let p = t.string("path") else { return nil }
                    if !p.hasPrefix("/") { t.error("path", "must be an absolute path"); return nil }
                    if p.utf8.count > maxPathBytes {
                        t.error("path", "\(p.utf8.count) bytes long: a Unix socket path has at most \(maxPathBytes) (sun_path)")
                        return nil
                    }
                    return p
                },
                describe: { v, _ in ["path \(v ?? "default (/run/gestured/gestured.sock as root, else $XDG_RUNTIME_DIR/gestured.sock)")"] }),
        Setting("mode", once: \.mode, type: "an octal mode such as \"0660\"", "The socket file's mode: with the group, who may connect.",
                read: { t, _, _ in
                    guard let v = t.value("mode") else { return nil }
                    if let d = v.string ?? v.int.map({ String($0) }), let m = UInt32(d, radix: 8), m <= 0o777 { return m }
                    t.error("mode", "expected an octal mode such as \"0660\"")
                    return nil
                },
                describe: { v, _ in ["mode \(String(v, radix: 8))"] }),
        // Whether the group exists is the resolve step's question (ConfigResolver).
        Setting("group", once: \.group, type: "a group name", "The socket file's group.",
                read: { t, _, _ in
                    guard let g = t.string("group") else { return nil }
                    if g.isEmpty { t.error("group", "must not be empty"); return nil }
                    return g
                },
                describe: { v, _ in ["group \(v ?? "(unchanged)")"] }),
        Setting("control_group", once: \.controlGroup, type: "a group name",
                "Members (and root) may switch modes, disable recognizers and replay; other clients only listen.",
                read: { t, _, _ in
                    guard let g = t.string("control_group") else { return nil }
                    if g.isEmpty { t.error("control_group", "must not be empty"); return nil }
                    return g
                },
                describe: { v, _ in ["control by root\(v.map { " and group \($0)" } ?? " only"); every other client listens"] }),
        Setting("max_clients", once: \.maxClients, type: "an integer 1…4096", "Clients connected at once.",
                read: { t, _, _ in t.int("max_clients", in: 1...4096) },
                describe: { v, _ in ["at most \(v) clients"] }),
        Setting("max_clients_per_user", once: \.maxClientsPerUser, type: "an integer 1…4096",
                "Clients one user (uid) may have connected at once; root is not limited.",
                read: { t, _, _ in t.int("max_clients_per_user", in: 1...4096) },
                describe: { v, _ in ["at most \(v) clients per user (root unlimited)"] }),
        Setting("lines_per_second", once: \.linesPerSecond, type: "an integer 1…100000",
                "Lines one client may send per second (blank lines count); a client that sends more is dropped.",
                read: { t, _, _ in t.int("lines_per_second", in: 1...100_000) },
                describe: { v, _ in ["at most \(v) lines a second from a client"] }),
        Setting("client_buffer_bytes", once: \.clientBufferBytes, type: "an integer 1024…67108864", unit: "bytes",
                "Output queued for one client before it is dropped as too slow.",
                read: { t, _, _ in t.int("client_buffer_bytes", in: 1024...(64 << 20)) },
                describe: { v, _ in ["\(v) bytes queued per client"] }),
        Setting("line_timeout", once: \.lineTimeout, type: "a number 0.05…3600", unit: "s",
                "Time a client may take to finish a line it started.",
                read: { t, _, _ in t.number("line_timeout", in: 0.05...3600, unit: "s") },
                describe: { v, _ in ["\(fmt(v)) s to finish a line"] }),
        Setting("idle_timeout", once: \.idleTimeout, type: "a number 0.05…86400", unit: "s",
                "A client that has sent no line for this long gives its slot to a new one when all are taken.",
                read: { t, _, _ in t.number("idle_timeout", in: 0.05...86_400, unit: "s") },
                describe: { v, _ in ["a client silent for \(fmt(v)) s gives its slot up when all are taken"] }),
    ]
}
