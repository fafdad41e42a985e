/// What one recognizer may see of a frame: every contact except those that began in one of its
/// excluded regions (`ArenaRules.excludedRegions`, `excludedForAll`). A contact that began outside and slides in
/// is still seen; one that began inside stays hidden until it lifts.
struct RegionFilter {
    private var excludedRects: [Rect] = []
    /// Contacts that began in an excluded region, this sequence.
    private var hiddenIDs: [Int32] = []
    /// The filtered copy, kept to reuse its storage.
    private var filtered = TouchFrame(time: 0, surface: Surface(widthMM: 1, heightMM: 1, isDirect: true))

    init(recognizer kind: GestureKind, rules: ArenaRules, regions: [Region]) {
        let excluded = (rules.excludedRegions[kind] ?? []) + rules.excludedForAll
        for r in regions where excluded.contains(r.name) || excluded.contains("*") { excludedRects.append(r.rect) }
        hiddenIDs.reserveCapacity(16)
        filtered.contacts.reserveCapacity(16)
    }

    /// No region is excluded for this recognizer: it sees every frame whole.
    var hidesNothing: Bool { excludedRects.isEmpty }

    /// `frame` as this recognizer sees it; the frame itself when nothing is hidden.
    mutating func view(_ frame: TouchFrame) -> TouchFrame {
        guard !excludedRects.isEmpty else { return frame }
        for c in frame.contacts where c.phase == .began {
            for r in excludedRects where r.contains(c.position) {
                hiddenIDs.append(c.id)
                break
            }
        }
        if hiddenIDs.isEmpty { return frame }
        filtered.time = frame.time
        filtered.surface = frame.surface
        filtered.contacts.removeAll(keepingCapacity: true)
        for c in frame.contacts where !hiddenIDs.contains(c.id) { filtered.contacts.append(c) }
        return filtered
    }

    /// A new sequence: no contact is hidden yet.
    mutating func reset() { hiddenIDs.removeAllKeepingCapacity() }
}
