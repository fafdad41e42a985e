import GestureKit

/// Turns a device's settings into arena rules: the catalog's defaults, with each rule the config
/// gives replacing the default of the same kind. The config names recognizers by their keys
/// (`GestureKind.rawValue`, checked against the catalog when read); the rules by kind.
public enum ArenaRulesBuilder {
    public static func rules(for s: DeviceSettings) -> ArenaRules {
        var r = RecognizerCatalog.defaultRules
        if let v = s.simultaneous { r.simultaneous = v.map(kinds) }
        if let v = s.requiresFailureOf { r.requiresFailureOf = relation(v) }
        if let v = s.yieldsTo { r.yieldsTo = relation(v) }
        if let v = s.exclude {
            r.excludedForAll = v["*"] ?? []
            r.excludedRegions = Dictionary(uniqueKeysWithValues: v.compactMap { k, regions in GestureKind(rawValue: k).map { ($0, regions) } })
        }
        return r
    }

    /// A relation by the recognizers' config keys (messages, `check-config`).
    public static func names(_ relation: [GestureKind: [GestureKind]]) -> [String: [String]] {
        Dictionary(uniqueKeysWithValues: relation.map { ($0.key.rawValue, $0.value.map(\.rawValue)) })
    }

    private static func kinds(_ names: [String]) -> [GestureKind] { names.compactMap(GestureKind.init(rawValue:)) }

    private static func relation(_ r: [String: [String]]) -> [GestureKind: [GestureKind]] {
        Dictionary(uniqueKeysWithValues: r.compactMap { k, v in GestureKind(rawValue: k).map { ($0, kinds(v)) } })
    }

    /// The arena for one device, built from the recognizers its settings select.
    public static func arena(for s: DeviceSettings, regions: [Region], shapes: [TaughtShape] = [], catalog: [RecognizerSpec] = RecognizerCatalog.all) -> GestureArena {
        let names = s.recognizers ?? catalog.map(\.name)
        let context = RecognizerContext(regions: regions, shapes: shapes)  // one for all: the shapes share its stroke
        let recognizers = names.compactMap { name in
            catalog.first { $0.name == name }.map { spec in
                spec.make(s.parameters[name] ?? [:], context: context)
            }
        }
        return GestureArena(recognizers: recognizers, rules: rules(for: s), regions: regions)
    }
}
