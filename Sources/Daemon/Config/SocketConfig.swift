/// `[socket]`: where clients connect and who may.
public struct SocketConfig: Sendable, Equatable {
    /// nil: `/run/gestured/gestured.sock` as root, `$XDG_RUNTIME_DIR/gestured.sock` otherwise.
    public var path: String?
    /// File mode of the socket: together with the group, the access control.
    public var mode: UInt32 = 0o660
    public var group: String?
    public var maxClients: Int = 32
    /// Bytes of output queued for one client before it is dropped as too slow.
    public var clientBufferBytes: Int = 256 * 1024
    /// Seconds a client may take to finish a line it started before it is dropped (a client
    /// that sends half a command and stalls would otherwise hold its slot forever).
    public var lineTimeout: Double = 5

    public init() {}

    /// The longest socket path: sun_path holds 107 bytes and a NUL, and the socket is bound
    /// first at `path.<pid>.new` (up to 12 bytes more) before it is renamed into place.
    public static let maxPathBytes = 107 - 12
}
