/// A reference held without retaining it, for the daemon's per-wakeup paths: the event loop's
/// handlers (the service, a device session and its registry, the process supervisor) and a
/// session's own device, recording and pipeline. A retained capture, or an `unowned(unsafe)`
/// one, was still retained and released around every call: ~40 instructions a wakeup each
/// (docs/performance.md). This is the one place the daemon borrows through `Unmanaged`.
///
/// Invariant: the object outlives every use of the Borrowed — its owner holds it strongly for
/// longer (the service outlives its loop; the registry holds a session until `close`, which
/// removes the session's handler; a session owns its device and recording for its life). A use
/// after the owner let the object go would read freed memory: debug builds (where the tests run)
/// also keep a weak reference and stop on such a use (BorrowedTests); release builds, as shipped,
/// check nothing.
struct Borrowed<Object: AnyObject> {
    private let ref: Unmanaged<Object>
    #if DEBUG
    private weak var alive: Object?
    #endif

    init(_ object: Object) {
        ref = .passUnretained(object)
        #if DEBUG
        alive = object
        #endif
    }

    /// Calls `body` with the object, neither retained nor released around the call.
    @inline(__always)
    func with<R>(_ body: (Object) throws -> R) rethrows -> R {
        #if DEBUG
        precondition(alive != nil, "Borrowed<\(Object.self)>: used after its owner let it go")
        #endif
        return try ref._withUnsafeGuaranteedRef(body)
    }

    /// The object, retained: for a caller about to drop the owner's last reference while the
    /// object is still in use (DeviceRegistry.closeGone).
    func retained() -> Object {
        #if DEBUG
        precondition(alive != nil, "Borrowed<\(Object.self)>: used after its owner let it go")
        #endif
        return ref.takeUnretainedValue()
    }
}
