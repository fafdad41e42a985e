/// A reference held without retaining it: the one way gestured does so. Used wherever a hot path
/// reaches an object its owner keeps alive for longer — the arena's entries and the shapes'
/// stroke (GestureKit), the pipeline's arena and stage (Evdev), the event loop's handlers and a
/// session's device, recording and pipeline (Daemon) — and to hand an object to a C library
/// that gives it back to a callback (`address`). A retained reference, or an `unowned(unsafe)`
/// one, was still retained and released around every call (speed: docs/architecture.md).
///
/// The one rule, its invariant: the object outlives every use of the Borrowed — its owner holds
/// it strongly for longer (each use says who: docs/architecture.md, "Unsafe constructs"). A use
/// after the owner let the object go would read freed memory: debug builds (where the tests run)
/// also keep a weak reference and stop on such a use (BorrowedTests); release builds, as shipped,
/// check nothing.
@frozen
public struct Borrowed<Object: AnyObject> {
    @usableFromInline let ref: Unmanaged<Object>
    #if DEBUG
    @usableFromInline weak var alive: Object?
    #endif

    @inlinable
    public init(_ object: Object) {
        ref = .passUnretained(object)
        #if DEBUG
        alive = object
        #endif
    }

    /// Calls `body` with the object, neither retained nor released around the call. (Not
    /// `rethrows`: the conversion to a throwing closure kept the arena's loops from inlining their
    /// bodies; speed: docs/architecture.md.)
    @inlinable @inline(__always)
    public func with<R>(_ body: (Object) -> R) -> R {
        #if DEBUG
        precondition(alive != nil, "Borrowed<\(Object.self)>: used after its owner let it go")
        #endif
        return ref._withUnsafeGuaranteedRef(body)
    }

    /// The object, retained: for a caller about to drop the owner's last reference while the
    /// object is still in use (DeviceRegistry.closeGone).
    @inlinable
    public func retained() -> Object {
        #if DEBUG
        precondition(alive != nil, "Borrowed<\(Object.self)>: used after its owner let it go")
        #endif
        return ref.takeUnretainedValue()
    }

    /// The object's address, for a C library's callback context: the callback finds the object
    /// again with `object(at:)`, while the owner still holds it (not checked: the address is all
    /// the callback has).
    @inlinable
    public var address: UnsafeMutableRawPointer { ref.toOpaque() }

    /// The object at an `address` given to a C library, retained for the callback's use.
    @inlinable
    public static func object(at address: UnsafeRawPointer) -> Object {
        Unmanaged<Object>.fromOpaque(address).takeUnretainedValue()
    }
}

/// A borrowed Sendable object may cross threads as its owner's reference would (an interned
/// name in an event: InternedName).
extension Borrowed: Sendable where Object: Sendable {}
