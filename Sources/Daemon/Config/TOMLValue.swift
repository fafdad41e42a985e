/// A TOML document's values as plain Swift values, owned by Swift: a config read on every
/// SIGHUP leaves nothing behind once read (TOMLKit, the parser before this one, never freed the
/// tree it parsed nor what it handed out: about 4 KiB a reload, docs/reliability.md).
enum TOMLValue: Equatable, Sendable {
    case string(String)
    case integer(Int)
    case float(Double)
    case boolean(Bool)
    /// A date, time or date-time, kept as written: no setting takes one, so it is only ever
    /// reported as the wrong type.
    case dateTime(String, TOMLDateTimeKind)
    case array([TOMLValue])
    case table(TOMLTable)

    var string: String? { if case .string(let s) = self { s } else { nil } }
    var int: Int? { if case .integer(let i) = self { i } else { nil } }
    var double: Double? { if case .float(let d) = self { d } else { nil } }
    var bool: Bool? { if case .boolean(let b) = self { b } else { nil } }
    var array: [TOMLValue]? { if case .array(let a) = self { a } else { nil } }
    var table: TOMLTable? { if case .table(let t) = self { t } else { nil } }

    /// The type's name in errors ("expected an integer, found string").
    var typeName: String {
        switch self {
        case .string: "string"
        case .integer: "integer"
        case .float: "floating-point number"
        case .boolean: "bool"
        case .dateTime(_, let kind): kind.rawValue
        case .array: "array"
        case .table: "table"
        }
    }
}

enum TOMLDateTimeKind: String, Sendable {
    case date, time, dateTime = "date-time"
}

/// A table: its keys in byte order (as errors list them), each once.
struct TOMLTable: Equatable, Sendable {
    private(set) var entries: [String: TOMLValue] = [:]

    var keys: [String] { entries.keys.sorted() }
    var count: Int { entries.count }
    subscript(key: String) -> TOMLValue? { entries[key] }

    init(_ entries: [String: TOMLValue] = [:]) { self.entries = entries }
}
