import GestureKit
import Testing

/// Each recognizer's declaration (kind, summary, parameters) is what config, `check-config` and
/// the docs show: these hold for every recognizer in the catalog.
@Suite struct RecognizerDeclarationTests {
    @Test(arguments: RecognizerCatalog.all.map(\.name))
    func declarationIsConsistent(_ name: String) throws {
        let spec = try #require(RecognizerCatalog.spec(named: name))
        #expect(spec.make().name == name)
        #expect(spec.summary.first?.isUppercase == true && spec.summary.hasSuffix("."), "\(spec.summary)")
        var keys = Set<String>()
        for p in spec.parameters {
            #expect(keys.insert(p.key).inserted, "\(p.key) declared twice")
            #expect(p.range.contains(p.defaultValue), "\(p.key) default \(p.defaultValue) outside \(p.range)")
            #expect(p.summary.first?.isUppercase == true && p.summary.hasSuffix("."), "\(p.key): \(p.summary)")
            if let old = p.formerKey { #expect(spec.parameter(named: old) == nil, "\(old) is both old and current") }
        }
    }

    /// Config values reach the typed fields, and the defaults are the fields' initial values.
    @Test func valuesReachTheTypedRules() throws {
        let r = try #require(TapRecognizer.spec.make(["max_count": 4, "double_tap_interval_s": 0.5]) as? TapRecognizer)
        #expect(r.rules.maxCount == 4 && r.rules.interval == 0.5)
        #expect(r.rules.maxMovementMM == TapRules().maxMovementMM)
        let p = try #require(TapRecognizer.spec.parameter(named: "max_movement_mm"))
        #expect(p.defaultValue == TapRules().maxMovementMM && p.unit == "mm")
        #expect(TapRecognizer.spec.parameter(formerlyNamed: "double_tap_interval")?.key == "double_tap_interval_s")
        let l = try #require(LongPressRecognizer.spec.make(["allow_drag": 1]) as? LongPressRecognizer)
        #expect(l.rules.allowDrag)
    }
}
