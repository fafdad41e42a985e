import GestureKit

/// Turns a device's settings into arena rules: the catalog's defaults, with each rule the config
/// gives replacing the default of the same kind.
public enum ArenaRulesBuilder {
    public static func rules(for s: DeviceSettings) -> ArenaRules {
        var r = RecognizerCatalog.defaultRules
        if let v = s.simultaneous { r.simultaneous = v }
        if let v = s.requiresFailureOf { r.requiresFailureOf = v }
        if let v = s.yieldsTo { r.yieldsTo = v }
        if let v = s.exclude { r.excludedRegions = v }
        return r
    }

    /// The arena for one device, built from the recognizers its settings select.
    public static func arena(for s: DeviceSettings, regions: [Region], shapes: [TaughtShape] = [], catalog: [RecognizerSpec] = RecognizerCatalog.all) -> GestureArena {
        let names = s.recognizers ?? catalog.map(\.name)
        let recognizers = names.compactMap { name in
            catalog.first { $0.name == name }.map { spec in
                spec.make(s.parameters[name] ?? [:], context: RecognizerContext(regions: regions, shapes: shapes))
            }
        }
        return GestureArena(recognizers: recognizers, rules: rules(for: s), regions: regions)
    }
}
