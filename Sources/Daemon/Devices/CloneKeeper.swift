import Evdev
import Logging

/// The daemon's clones whose panel went away (KeptClones decides; this removes and logs): a
/// session hands its clone over when its panel goes, a session opening takes it back when its
/// panel returns unchanged, and the service's timer removes those whose time is up.
final class CloneKeeper: TimedSource {
    private var clones = KeptClones<TouchClone>() {
        didSet { deadline = clones.deadline }
    }
    private let log: Logger

    init(log: Logger) { self.log = log }

    /// How many wait.
    var count: Int { clones.kept.count }

    /// Each clone waiting, for `status`: its panel's name, its node, the seconds left.
    func waiting(now: Double) -> [(panel: String, clone: String, remainingS: Double)] {
        clones.kept.map { ($0.panel.identity.name, $0.clone.devnode, max(0, $0.until - now)) }
    }

    /// Kept as the list changes: the service reads it after every wakeup.
    private(set) var deadline: Double?

    /// The panel `name` of `clone` went away; the app's touches have ended already.
    func keep(_ clone: TouchClone, panel: ClonePanel, seconds: Double, name: String, now: Double) {
        let removed = clones.keep(clone, panel: panel, seconds: seconds, now: now)
        if !removed.contains(where: { $0 === clone }) {
            log.info("\(name): gone; its clone \(clone.devnode) waits \(fmt(seconds)) s for its return (keep_clone_s)")
        }
        for c in removed { remove(c, why: c === clone ? "its panel went (keep_clone_s = 0)" : "more than \(KeptClones<TouchClone>.capacity) clones wait") }
    }

    /// A panel opened for passthrough: its kept clone if one serves it; one that no longer does is removed.
    func take(for panel: ClonePanel) -> TouchClone? {
        let (fitting, stale) = clones.take(for: panel)
        for s in stale { remove(s.clone, why: "its panel came back \(Self.describe(s.fit))") }
        return fitting
    }

    /// A panel opened without passthrough: a clone kept for it goes.
    func release(_ identity: PanelIdentity) {
        for c in clones.take(identity: identity) { remove(c, why: "its panel came back without passthrough") }
    }

    func due(now: Double) {
        for k in clones.expire(now: now) { remove(k.clone, why: "its panel did not return in time (keep_clone_s)") }
    }

    /// Shutdown: no clone outlives the daemon.
    func removeAll() {
        for c in clones.removeAll() { c.destroy() }
    }

    private func remove(_ clone: TouchClone, why: String) {
        log.info("clone \(clone.devnode) (\(clone.name)) removed: \(why)")
        clone.destroy()
    }

    private static func describe(_ fit: CloneFit) -> String {
        switch fit {
        case .fits, .otherPanel: "as another panel"
        case .otherShape(let why): "changed (\(why))"
        case .otherMapping: "mapped otherwise (map_clone, rotation or calibration changed)"
        }
    }
}
