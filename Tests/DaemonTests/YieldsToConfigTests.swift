import Daemon
import GestureKit
import Testing

/// `yields_to`: read like `requires_failure_of`, checked for names, self-reference and cycles with
/// `requires_failure_of`, each error naming file, line and key.
@Suite struct YieldsToConfigTests {
    func error(_ text: String) throws -> ConfigError {
        let errors = try requireThrown(ConfigErrors.self) { try ConfigLoader().parse(text, file: "y.toml") }
        return try #require(errors.errors.first, "\(errors)")
    }

    @Test func unknownRecognizer() throws {
        let e = try error("""
            [defaults]
            yields_to = { pan = ["swipe", "lasso"] }
            """)
        #expect(e.description.hasPrefix("y.toml:2: defaults.yields_to.pan: "), "\(e)")
        #expect(e.message.contains("unknown recognizer \"lasso\""), "\(e)")
    }

    @Test func yieldingToItself() throws {
        let e = try error("""
            [[device]]
            name = "*"

            yields_to = { pan = "pan" }
            """)
        #expect(e.description.hasPrefix("y.toml:4: device[1].yields_to.pan: "), "\(e)")
        #expect(e.message.contains("cannot yield to itself"), "\(e)")
    }

    @Test func cycleWithRequiresFailureOf() throws {
        // tap waits for pan by default; pan yielding to tap would wait for itself.
        let e = try error("""
            [defaults]
            requires_failure_of = { tap = ["pan"] }
            [defaults.yields_to]
            swipe = ["circle"]
            pan = ["tap"]
            """)
        #expect(e.description.hasPrefix("y.toml:5: defaults.yields_to.pan: "), "\(e)")
        #expect(e.message.contains("pan → tap → pan"), "\(e)")
        // Through a chain, and against the built-in requires_failure_of when the file gives none.
        let chained = try error("""
            [defaults]
            yields_to = { pan = ["swipe"], swipe = ["tap"] }
            """)
        #expect(chained.description.hasPrefix("y.toml:2: defaults.yields_to."), "\(chained)")
        #expect(chained.message.contains("a cycle"), "\(chained)")
    }

    @Test func bothYieldingToAndRequiringTheFailureOf() throws {
        let e = try error("""
            [defaults]
            requires_failure_of = { pan = ["swipe"] }
            yields_to = { pan = ["swipe", "circle"] }
            """)
        #expect(e.description.hasPrefix("y.toml:3: defaults.yields_to.pan: "), "\(e)")
        #expect(e.message.contains("both yields to and requires the failure of swipe"), "\(e)")
    }

    @Test func aGoodRuleReachesTheArenaAndCheckConfig() throws {
        let config = try ConfigLoader().parse("""
            [defaults]
            yields_to = { pan = ["swipe"] }
            """, file: "y.toml")
        #expect(ArenaRulesBuilder.rules(for: config.defaults).yieldsTo == [.pan: [.swipe]])
        #expect(ConfigExplanation(config: config).text.contains("pan yields to swipe: begins without waiting for them"))
        // Without the key, the built-in rule: pan gives way to swipe and the shapes.
        let plain = try ConfigLoader().parse("", file: "y.toml")
        #expect(ConfigExplanation(config: plain).text.contains("pan yields to swipe, circle, checkmark, tickle, shape: begins"))
    }
}
