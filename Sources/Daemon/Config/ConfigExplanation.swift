import Evdev
import GestureKit

/// The effective setup in words, for `gestured check-config`: what an operator needs to see to
/// trust that the file means what they think.
public struct ConfigExplanation {
    public var config: DaemonConfig
    public var catalog: [RecognizerSpec]

    public init(config: DaemonConfig, catalog: [RecognizerSpec] = RecognizerCatalog.all) {
        self.config = config
        self.catalog = catalog
    }

    public var text: String {
        var out: [String] = []
        let socket = config.socket.explanation()
        out.append("socket: " + socket[0])
        out.append("  " + socket.dropFirst().joined(separator: ", "))
        out.append("regions: \(config.regions.isEmpty ? "none" : "")")
        for r in config.regions {
            out.append("  \(r.name): x \(fmt(r.rect.minX))…\(fmt(r.rect.maxX)), y \(fmt(r.rect.minY))…\(fmt(r.rect.maxY))")
        }
        out.append("defaults (devices no section matches):")
        out.append(contentsOf: config.defaults.explanation(catalog: catalog).map { "  " + $0 })
        for d in config.devices {
            out.append("device section \(d.index), matching \(describe(d.match)):")
            out.append(contentsOf: config.defaults.overlaid(with: d.settings).explanation(catalog: catalog).map { "  " + $0 })
        }
        out.append(contentsOf: describe(config.shapes))
        out.append("bindings: \(config.bindings.isEmpty ? "none" : "")")
        for b in config.bindings { out.append("  " + describe(b)) }
        out.append(contentsOf: describe(config.modes))
        if let m = config.mqtt { out.append("mqtt:"); out.append(contentsOf: m.explanation().map { "  " + $0 }) }
        return out.joined(separator: "\n")
    }

    private func describe(_ m: DeviceMatch) -> String {
        var parts: [String] = []
        if let n = m.name { parts.append("name \"\(n)\"") }
        if let vp = m.vendorProduct { parts.append("vendor:product \(hex(vp.vendor)):\(hex(vp.product))") }
        if let k = m.kind { parts.append("kind \(k.rawValue)") }
        for (k, v) in m.properties.sorted(by: { $0.key < $1.key }) { parts.append("\(k)=\"\(v)\"") }
        return parts.joined(separator: ", ")
    }

    private func hex(_ v: UInt16) -> String {
        let h = String(v, radix: 16)
        return String(repeating: "0", count: 4 - h.count) + h
    }

    private func describe(_ s: ShapesConfig) -> [String] {
        guard let dir = s.directory else { return ["taught shapes: none ([shapes] dir not set)"] }
        var out = ["taught shapes in \(dir): \(s.shapes.isEmpty ? "none" : "")"]
        for shape in s.shapes {
            let rotate = shape.rotate ? "any rotation and drawing direction" : "as drawn (orientation and direction matter)"
            out.append("  \(shape.name): \(shape.examples.count) example\(shape.examples.count == 1 ? "" : "s"), threshold \(fmt(shape.threshold)) \(shape.thresholdOrigin.rawValue), \(rotate)")
        }
        return out
    }

    private func describe(_ c: ModesConfig) -> [String] {
        guard c.names != [KioskMode.implicitName] || !c.sequences.isEmpty || c.screen != ScreenConfig() else {
            return ["modes: none (one mode: every recognizer, the app gets every touch)"]
        }
        var out = ["modes (starts in \(c.initial)):"]
        for m in c.modes {
            var parts = ["recognizers \(m.recognizers.map { $0.isEmpty ? "none" : $0.joined(separator: ", ") } ?? "all")",
                         m.appGetsTouches ? "the app gets every touch"
                            // Said as it is: the clone is what the app is kept from (docs/security.md).
                            : "the app gets nothing of a device passed through (one without a clone still gives it every touch)"]
            if let t = m.idleTimeout, let to = m.idleMode { parts.append("after \(fmt(t)) s without a touch: \(to)") }
            if let w = m.wakeMode { parts.append("screen dark: the first touch wakes it, then \(w)") }
            out.append("  \(m.name): " + parts.joined(separator: "; "))
        }
        if let p = c.screen.state { out.append("screen: dark while \(p) reads Off (dpms) or non-zero (bl_power), read at each first touch") }
        if let w = c.screen.wake { out.append("screen: a waking touch runs \(w.argv.map { "\"\($0)\"" }.joined(separator: " "))") }
        for q in c.sequences {
            let steps = q.steps.map { $0.conditions.joined(separator: " ") }.joined(separator: " → ")
            out.append("sequence \(q.name): \(steps) within \(fmt(q.within)) s → " + action(q.binding))
        }
        return out
    }

    private func describe(_ b: Binding) -> String {
        var cond = b.filter.conditions
        if let v = b.shape { cond.append("shape \(v)") }
        if let s = b.step, let q = b.stepOf { cond.append("every \(fmt(s)) of \(q.rawValue)") }
        if let m = b.inModes { cond.append("in mode " + m.joined(separator: "/")) }
        return "[\(b.index)] \(cond.joined(separator: ", ")) → \(action(b))"
    }

    private func action(_ b: Binding) -> String {
        let what: String
        switch b.action {
        case .command(.argv(let a)): what = "run " + a.map { "\"\($0)\"" }.joined(separator: " ") + " (timeout \(fmt(b.timeout)) s, cooldown \(fmt(b.cooldown)) s, at most \(b.maxConcurrent) at once)"
        case .command(.shell(let s)): what = "shell \"\(s)\" (timeout \(fmt(b.timeout)) s, cooldown \(fmt(b.cooldown)) s, at most \(b.maxConcurrent) at once)"
        case .keys(let chords): what = "keys " + chords.map(\.text).joined(separator: ", ") + " on the virtual keyboard (cooldown \(fmt(b.cooldown)) s)"
        case .click(let button): what = "\(button.rawValue) click at the gesture's centre with the virtual pointer (cooldown \(fmt(b.cooldown)) s)"
        case .switchMode(let m, let seconds): what = "mode \(m)" + (seconds.map { " for \(fmt($0)) s, then back" } ?? "") + " (cooldown \(fmt(b.cooldown)) s)"
        }
        return what
    }
}

extension GestureFilter {
    /// A gesture filter's conditions (a binding's, or what `[mqtt]` publishes).
    var conditions: [String] {
        var cond = ["\(gesture.rawValue) \(phases.map(\.rawValue).joined(separator: "/"))"]
        if let v = device { cond.append("device \"\(v)\"") }
        if let v = region { cond.append("region \(v)") }
        if let v = direction { cond.append("direction \(v.rawValue)") }
        if let v = edge { cond.append("edge \(v.rawValue)") }
        if let v = fingers { cond.append("\(v) finger\(v == 1 ? "" : "s")") }
        if let v = count { cond.append("count \(v)") }
        return cond
    }
}
