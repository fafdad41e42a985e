import Testing

/// The error of type `E` that `body` throws, else a recorded issue and a thrown error: what
/// `#require(throws:)` returns since Swift Testing 6.1. Debian 13's Swift 6.0 returns nothing
/// from it, and both compilers build these tests.
func requireThrown<E: Error, R>(
    _ type: E.Type, _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> R
) throws -> E {
    let note = comment.map { " (\($0.rawValue))" } ?? ""
    do {
        _ = try body()
    } catch let error as E {
        return error
    } catch {
        Issue.record("expected \(E.self) to be thrown, got \(error)\(note)", sourceLocation: sourceLocation)
        throw error
    }
    Issue.record("expected \(E.self) to be thrown, nothing was\(note)", sourceLocation: sourceLocation)
    throw NothingThrown()
}

struct NothingThrown: Error {}
