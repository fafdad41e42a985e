import Evdev
import GestureKit

/// A device's touch conditioning as `status` reports it: the clone in screen coordinates
/// (`map_clone`), the app's finger count, the palm rule, ghosts quarantined and their patterns.
struct TouchConditioning {
    /// The clone reports screen coordinates.
    var mapClone = false
    /// A LIBINPUT_CALIBRATION_MATRIX udev gives a mapped clone too (applied twice: an error).
    var cloneMatrixTwice: String?
    /// `app_fingers`, when the app's finger count is limited.
    var appFingers: Int?
    /// The palm rule in force (`palm_mm` on a device that reports contact size).
    var palm: PalmRule?
    /// Palms rejected since the pipeline was built; nil without a palm rule.
    var palms: Int?
    /// Ghosts quarantined since the pipeline was built; nil when `quarantine_ghosts` is off.
    var ghosts: Int?
    var ghostPatterns: [GhostQuarantine.Pattern] = []

    func write(_ w: inout JSONWriter) {
        w.key("map_clone"); w.bool(mapClone)
        if let m = cloneMatrixTwice { w.key("clone_calibration_twice"); w.string(m) }
        if let n = appFingers { w.key("app_fingers"); w.int(n) }
        if let p = palm {
            w.key("palm_mm"); w.number(p.mm, decimals: 1)
            w.key("palm_axis"); w.string(p.axisName)
            w.key("palms"); w.int(palms ?? 0)
        }
        guard let ghosts else { return }
        w.key("ghosts"); w.int(ghosts)
        w.objects("ghost_patterns", ghostPatterns) { w, p in
            w.point("mm", p.mm, decimals: 1)
            w.key("outside"); w.bool(p.outside)
            w.key("count"); w.int(p.count)
            w.key("period_s")
            if let period = p.period { w.number(period, decimals: 3) } else { w.null() }
        }
    }

    /// The log's line for a pattern's news: once when a place first has a ghost, once when its
    /// period is learned.
    static func line(_ news: GhostQuarantine.News, _ patterns: [GhostQuarantine.Pattern]) -> String {
        switch news {
        case .seen(let i):
            let p = patterns[i]
            return "ghost touch quarantined at \(DecimalText.string(p.mm.x, places: 1)), \(DecimalText.string(p.mm.y, places: 1)) mm"
                + (p.outside ? " (outside the surface)" : "") + "; more at this place are counted (status, MQTT), not logged"
        case .periodic(let i):
            let p = patterns[i]
            return "ghost touches at \(DecimalText.string(p.mm.x, places: 1)), \(DecimalText.string(p.mm.y, places: 1)) mm repeat every \(DecimalText.string(p.period ?? 0, places: 3)) s (\(p.count) so far)"
        }
    }
}
