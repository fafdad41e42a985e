import GestureKit

/// Why a binding's action runs, as its log lines say: a gesture's kind and phase ("swipe
/// recognized"), or the screen waking. Kept as values and written out only into a line that
/// is logged, not built as text for every command (speed: docs/architecture.md).
struct RunCause: Sendable, CustomStringConvertible {
    var gesture: (kind: GestureKind, phase: GesturePhase)?

    var description: String {
        ByteWriter.string(capacity: Self.maxBytes) { write(to: &$0) }
    }

    /// The longest text `write` writes.
    static let maxBytes = 64

    func write(to w: inout ByteWriter) {
        guard let g = gesture else { return w.write("the screen waking") }
        w.write(g.kind.rawValue)
        w.write(byte: UInt8(ascii: " "))
        w.write(g.phase.rawValue)
    }
}
