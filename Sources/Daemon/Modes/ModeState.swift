/// Which mode the kiosk is in and when it leaves it by itself: a `for` that runs out, or the
/// mode's idle timeout. Pure state (times are given); the service applies each change.
///
/// Idle is counted from the last touch-down (or the mode's start). Its timer is not moved at
/// every touch: when it fires, it looks at the last touch and, if there was one since, sets
/// itself for that touch's timeout. A busy kiosk so costs one wakeup per timeout, an idle one
/// none once it is in a mode without a timeout.
struct ModeState {
    /// One change, as broadcast: `{"event":"mode","mode":…,"previous":…,"reason":…}`.
    struct Change: Equatable {
        var mode: String
        var previous: String
        var reason: String
    }

    private(set) var config: ModesConfig
    private(set) var current: KioskMode
    /// After a `for`: when, and to which mode, it goes back.
    private(set) var returnAt: (time: Double, mode: String)?
    private(set) var idleCheckAt: Double?
    private var lastTouch: Double
    /// The closed mode (the app gets nothing) the kiosk came from, which an idle timeout or a
    /// waking touch may not open: set when a person's switch (a sequence, a control client, a
    /// binding) leaves such a mode for a while (a `for`) or for another closed mode (the
    /// screensaver's dark one), cleared when one opens the kiosk for good or the kiosk is back in it.
    private(set) var floor: String?

    /// The reason of the switch a touch on a dark screen makes (ModeControl): not a person's choice.
    static let wakeReason = "wake"

    init(_ config: ModesConfig, now: Double) {
        self.config = config
        current = config.mode(named: config.initial) ?? config.modes[0]
        lastTouch = now
        idleCheckAt = current.idleTimeout.map { now + $0 }
    }

    /// The next time `due` has something to do.
    var deadline: Double? {
        switch (returnAt?.time, idleCheckAt) {
        case let (r?, i?): min(r, i)
        case let (r, i): r ?? i
        }
    }

    /// A new config (reload): the mode stays when it still exists (its timers restart),
    /// else the initial mode.
    mutating func reload(_ fresh: ModesConfig, now: Double) -> Change? {
        config = fresh
        let name = fresh.mode(named: current.name) != nil ? current.name : fresh.initial
        returnAt = nil
        if let f = floor, fresh.mode(named: f)?.appGetsTouches != false { floor = nil }
        return enter(name, reason: "reload", now: now)
    }

    /// Switches to a mode (a no-op but for its timers when it is the current one); with
    /// `seconds`, back to the current mode after that long. Nil when the mode is unknown or
    /// already current.
    mutating func switchTo(_ name: String, reason: String, for seconds: Double? = nil, now: Double) -> Change? {
        guard let target = config.mode(named: name) else { return nil }
        if reason == Self.wakeReason {
            returnAt = nil
            return enter(landing(name), reason: reason, now: now)
        }
        let back = current.name
        if isLocked(current), seconds != nil || !target.appGetsTouches {
            floor = current.name
        } else if seconds == nil, target.appGetsTouches {
            floor = nil
        }
        let change = enter(name, reason: reason, now: now)
        returnAt = seconds.map { (now + $0, back) }
        return change
    }

    /// A closed mode that is not a dark screen's: one the kiosk is kept in until a person says.
    private func isLocked(_ mode: KioskMode) -> Bool { !mode.appGetsTouches && mode.wakeMode == nil }

    /// Where an idle timeout or a wake to `target` lands: never in a mode more open than the one
    /// the kiosk came from — the floor, or the current mode when it is itself locked.
    private func landing(_ target: String) -> String {
        guard config.mode(named: target)?.appGetsTouches == true else { return target }
        if let f = floor, config.mode(named: f) != nil { return f }
        return isLocked(current) ? current.name : target
    }

    mutating func touched(now: Double) { lastTouch = now }

    /// The mode a restart found saved (ModeRecord), with what is left of its `for`: when that
    /// ran out while the service was down, the mode it went back to. Nil when the saved mode is
    /// gone from the config (the initial mode stays) or is the current one.
    mutating func restore(_ saved: ModeRecord.Saved, now: Double) -> Change? {
        if let f = saved.floor, config.mode(named: f)?.appGetsTouches == false { floor = f }
        if let back = saved.back, let at = saved.at, at <= now, config.mode(named: back) != nil {
            return enter(back, reason: "restored", now: now)
        }
        let change = enter(saved.mode, reason: "restored", now: now)
        if let back = saved.back, let at = saved.at, config.mode(named: back) != nil, current.name == saved.mode { returnAt = (at, back) }
        return change
    }

    /// A `for` that ran out, or the idle timeout.
    mutating func due(now: Double) -> Change? {
        if let r = returnAt, r.time <= now {
            returnAt = nil
            return enter(r.mode, reason: "timer", now: now)
        }
        guard let check = idleCheckAt, check <= now, let timeout = current.idleTimeout, let idle = current.idleMode else { return nil }
        let at = lastTouch + timeout
        if at > now {
            idleCheckAt = at
            return nil
        }
        returnAt = nil
        return enter(landing(idle), reason: "idle", now: now)
    }

    private mutating func enter(_ name: String, reason: String, now: Double) -> Change? {
        guard let mode = config.mode(named: name) else { return nil }
        let previous = current.name
        current = mode
        if floor == name { floor = nil }
        lastTouch = now
        idleCheckAt = mode.idleTimeout.map { now + $0 }
        return previous == name ? nil : Change(mode: name, previous: previous, reason: reason)
    }
}
