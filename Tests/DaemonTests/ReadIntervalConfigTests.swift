import Daemon
import Testing

/// `read_interval_ms`: a device setting like the others (defaults, then matching sections), shown
/// by check-config; off unless given. What it does to reads is a kernel matter: VM scenario 41.
@Suite struct ReadIntervalConfigTests {
    let touchscreen = DeviceIdentity(name: "Wacom ISDv4 E6 Finger", id: "", vendor: 0x056a, product: 0x00e6,
                                     kind: .touchscreen, properties: [:])

    @Test func aMatchingSectionOverridesTheDefault() throws {
        let config = try ConfigLoader().parse("""
            [defaults]
            read_interval_ms = 16

            [[device]]
            kind = "touchscreen"
            read_interval_ms = 30
            """, file: "r.toml")
        #expect(config.defaults.readIntervalMS == 16)
        #expect(config.settings(for: touchscreen).settings.readIntervalMS == 30)
        #expect(ConfigExplanation(config: config).text.contains("read at most every 30 ms while fingers are down"))
    }

    @Test func offUnlessGiven() throws {
        let config = try ConfigLoader().parse("", file: "r.toml")
        #expect(config.settings(for: touchscreen).settings.readIntervalMS == nil)
        #expect(!ConfigExplanation(config: config).text.contains("read at most"))
    }
}
