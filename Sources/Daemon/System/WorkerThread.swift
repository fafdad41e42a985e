import Glibc

/// Starts a POSIX thread running `body` (the MQTT link's threads, the command spawner). It
/// inherits the daemon's blocked signals, so they keep arriving only through the signalfd.
func startWorkerThread(_ body: @escaping @Sendable () -> Void) throws -> pthread_t {
    final class Start: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    var thread = pthread_t()
    let ctx = Unmanaged.passRetained(Start(body)).toOpaque()
    let rc = pthread_create(&thread, nil, { ctx in
        Unmanaged<Start>.fromOpaque(ctx!).takeRetainedValue().body()
        return nil
    }, ctx)
    if rc != 0 {
        Unmanaged<Start>.fromOpaque(ctx).release()
        throw SystemError("pthread_create", code: rc)
    }
    return thread
}
