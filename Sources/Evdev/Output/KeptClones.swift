/// Clones whose panel went away, each waiting for its panel's return until its time is up
/// (`keep_clone_s`): a panel replugged or power-cycled gets its clone back, and the compositor,
/// which reads the clone, never sees the touchscreen go. Generic over the clone, so that the
/// decisions are tested without uinput; times are monotonic seconds.
public struct KeptClones<Clone> {
    public struct Kept {
        public var clone: Clone
        public var panel: ClonePanel
        /// When it is removed if its panel has not returned.
        public var until: Double
    }

    /// At most this many wait at once, the oldest removed first: panels come and go by the
    /// hundred on a flapping hub, and each kept clone is a device in /dev/input.
    public static var capacity: Int { 8 }

    public private(set) var kept: [Kept] = []

    public init() {}

    public var isEmpty: Bool { kept.isEmpty }

    /// The earliest time a clone is due to go (`expire`), nil when none waits.
    public var deadline: Double? { kept.lazy.map(\.until).min() }

    /// The panel of `clone` went away: it waits `seconds` for its return. Returns the clones to
    /// remove now: itself when it may not wait (0 s), and the oldest beyond `capacity`.
    public mutating func keep(_ clone: Clone, panel: ClonePanel, seconds: Double, now: Double) -> [Clone] {
        guard seconds > 0 else { return [clone] }
        // One panel has one clone waiting: it cannot have gone twice without coming back.
        var gone = kept.filter { $0.panel.identity == panel.identity }.map(\.clone)
        kept.removeAll { $0.panel.identity == panel.identity }
        kept.append(Kept(clone: clone, panel: panel, until: now + seconds))
        while kept.count > Self.capacity { gone.append(kept.removeFirst().clone) }
        return gone
    }

    /// A panel appeared: what waits for its identity leaves the list — `fitting`, the clone that
    /// serves it unchanged, and `stale`, one its panel came back unfit for (with why), to remove.
    /// A clone never serves another panel.
    public mutating func take(for panel: ClonePanel) -> (fitting: Clone?, stale: [(clone: Clone, fit: CloneFit)]) {
        var fitting: Clone?
        var stale: [(clone: Clone, fit: CloneFit)] = []
        for k in kept where k.panel.identity == panel.identity {
            let fit = k.panel.fit(panel)
            if fit == .fits && fitting == nil { fitting = k.clone } else { stale.append((k.clone, fit)) }
        }
        kept.removeAll { $0.panel.identity == panel.identity }
        return (fitting, stale)
    }

    /// A panel appeared that takes no clone (its passthrough is off now): what waits for it is removed.
    public mutating func take(identity: PanelIdentity) -> [Clone] {
        let gone = kept.filter { $0.panel.identity == identity }.map(\.clone)
        kept.removeAll { $0.panel.identity == identity }
        return gone
    }

    /// The clones whose time is up at `now`, taken from the list to be removed.
    public mutating func expire(now: Double) -> [Kept] {
        let due = kept.filter { $0.until <= now }
        kept.removeAll { $0.until <= now }
        return due
    }

    /// Every clone, for shutdown.
    public mutating func removeAll() -> [Clone] {
        defer { kept.removeAll() }
        return kept.map(\.clone)
    }
}
