/// A continuous recognizer whose `changed` events can go unbuilt. Building one per moving frame
/// (its velocity, the event, its way through the arena) is most of what a moving gesture costs,
/// and when no binding and no client listens to them nobody sees it. Unreported, the recognizer
/// still passes through `changed` as before; `began`, `ended` and `cancelled` always go out.
public protocol ChangeReporting: GestureRecognizer {
    /// True by default; set through GestureArena.reportChanges(of:_:).
    var reportsChanges: Bool { get set }
}
