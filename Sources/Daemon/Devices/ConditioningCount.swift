/// Touches conditioning kept from the app and the recognizers: ghosts quarantined
/// (`quarantine_ghosts`) and palms rejected (`palm_mm`). A session tells the registry what it
/// counted since it last told (a pipeline's own counts restart with it); the fleet adds them up
/// for the kiosk, so the kiosk's counts only grow while the daemon runs.
struct ConditioningCount: Equatable {
    var ghosts = 0
    var palms = 0

    static func - (a: Self, b: Self) -> Self { .init(ghosts: a.ghosts - b.ghosts, palms: a.palms - b.palms) }
    static func += (a: inout Self, b: Self) { a = .init(ghosts: a.ghosts + b.ghosts, palms: a.palms + b.palms) }
}
