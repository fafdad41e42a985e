import Daemon
import Testing

/// Device settings are declared once (`DeviceSettings.settings`); reading, overlaying, the
/// unknown-key message and `check-config`'s reference all come from those declarations.
@Suite struct SettingDeclarationTests {
    let screen = DeviceIdentity(name: "Panel", id: "", vendor: 1, product: 2, kind: .touchscreen)

    /// A value for each declared key that the reader accepts.
    static let values: [String: String] = [
        "rotation": "90", "calibration": "[1, 0, 0, 0, 1, 0]", "size_mm": "[300, 200]", "grab": "true",
        "passthrough": "true", "cancels_touches": "false", "taken_touch_end": "\"cancel\"", "delay_regions": "[\"edges\"]", "delay_fingers": "3",
        "read_interval_ms": "12", "recognizers": "[\"tap\", \"pan\"]", "simultaneous": "[[\"pan\", \"tap\"]]",
        "requires_failure_of": "{ tap = [\"pan\"] }", "yields_to": "{ pan = [\"swipe\"] }", "exclude": "[]",
        "map_clone": "true", "app_fingers": "1", "palm_mm": "30", "quarantine_ghosts": "true", "longest_ghost_ms": "10",
        "keep_clone_s": "60",
    ]

    @Test func everyDeclaredKeyIsReadAndALaterSectionWins() throws {
        let keys = DeviceSettings.settings.map(\.key).filter { !$0.hasPrefix("<") }
        #expect(Set(keys) == Set(Self.values.keys), "a declared key without a test value, or the reverse")
        for key in keys {
            let v = try #require(Self.values[key])
            let config = try ConfigLoader().parse("[[device]]\nkind = \"touchscreen\"\n\(key) = \(v)\n", file: "d.toml")
            let effective = config.settings(for: screen).settings
            #expect(effective != config.defaults, "\(key) = \(v) left the device's settings as the defaults")
        }
    }

    @Test func theUnknownKeyMessageListsEveryDeclaredKey() throws {
        let e = try requireThrown(ConfigErrors.self) { try ConfigLoader().parse("[defaults]\nrotatoin = 90\n", file: "d.toml") }
        for key in DeviceSettings.settings.map(\.key) where !key.hasPrefix("<") {
            #expect(e.description.contains(key), "\(key) missing from \(e)")
        }
    }

    @Test func theReferenceHasALinePerKeyWithItsUnit() {
        let reference = DeviceSettings.reference
        #expect(reference.count == DeviceSettings.settings.count)
        #expect(reference.contains { $0.hasPrefix("read_interval_ms: a number 0…50 (ms).") })
    }

    /// The README names every declared key of `[defaults]`/`[[device]]`, `[socket]` and `[mqtt]`.
    @Test func theReadmeNamesEveryDeclaredKey() throws {
        let readme = try CatalogListTests.text("README.md")
        let keys = (DeviceSettings.settings.map(\.key) + SocketConfig.settings.map(\.key) + MQTTConfig.settings.map(\.key))
            .filter { !$0.hasPrefix("<") }
        for key in keys {
            #expect(readme.contains("`\(key)`") || readme.contains("\n\(key) = ") || readme.contains("# \(key) = ")
                    || readme.contains("`\(key) =") || readme.contains("[[mqtt.\(key)]]"), "README does not name `\(key)`")
        }
    }
}
