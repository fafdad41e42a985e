/// A name an event carries (a region's, a taught shape's), interned: one string per distinct
/// name for the life of the process, which an event holds borrowed (`Borrowed`: the table keeps
/// it). A String in GestureEvent made every copy of an event retain it and every destruction
/// release it; with names held so, an event is plain bytes: copied as such, destroyed for
/// nothing (speed: docs/architecture.md).
///
/// Names are interned where they are made (a config's regions, a recognizer's taught shapes),
/// not per event; there are as many as a config names, so the table is a list, and it never
/// shrinks (a name dropped by a reload costs its few bytes until exit).
public struct InternedName: Sendable, Hashable, CustomStringConvertible {
    private final class Storage: Sendable {
        let string: String
        init(_ string: String) { self.string = string }
    }

    /// Every name interned so far; kept alive here, so `storage` never dangles.
    private static let table = Locked<[Storage]>([])

    private let storage: Borrowed<Storage>

    public init(_ string: String) {
        storage = Borrowed(Self.table.withLock { table in
            if let known = table.first(where: { $0.string == string }) { return known }
            let new = Storage(string)
            table.append(new)
            return new
        })
    }

    public var string: String { storage.with { $0.string } }
    public var description: String { string }

    /// One storage per distinct string: equal names are the same storage.
    public static func == (a: Self, b: Self) -> Bool { a.storage.address == b.storage.address }
    public func hash(into hasher: inout Hasher) { hasher.combine(storage.address) }
}
