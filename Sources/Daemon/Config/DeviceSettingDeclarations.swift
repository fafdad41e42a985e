import GestureKit

/// Every key of `[defaults]` and `[[device]]`, in the order they are read and explained. Adding a
/// device setting is one declaration here (and a field in `DeviceSettings`) plus its use.
extension DeviceSettings {
    public static let settings: [Setting<DeviceSettings>] = [
        Setting("rotation", \.rotation, type: "0, 90, 180 or 270", unit: "degrees clockwise", "Turns the device's axes to the screen's.",
                read: { t, _, _ in
                    guard let r = t.int("rotation", in: 0...359) else { return nil }
                    if r % 90 != 0 { t.error("rotation", "must be 0, 90, 180 or 270"); return nil }
                    return r
                },
                describe: { v, _, _ in ["rotation \(v ?? 0)°"] }),
        Setting("calibration", \.calibration, type: "6 numbers", "The 2×3 matrix, as LIBINPUT_CALIBRATION_MATRIX.",
                read: { t, _, _ in t.numbers("calibration", count: 6) },
                describe: { v, _, _ in ["calibration \(v.map { $0.map(fmt).joined(separator: " ") } ?? "from udev or identity")"] }),
        Setting("size_mm", \.sizeMM, type: "2 numbers 1…10000", unit: "mm", "Width and height, where the device reports none or wrong.",
                read: { t, _, _ in
                    guard let z = t.numbers("size_mm", count: 2) else { return nil }
                    if !z.allSatisfy({ $0 >= 1 && $0 < 10_000 }) { t.error("size_mm", "width and height must be within 1…10000 millimetres"); return nil }
                    return z
                },
                describe: { v, _, _ in ["size \(v.map { "\(fmt($0[0]))×\(fmt($0[1])) mm" } ?? "from the device")"] }),
        .bool("grab", \.grab, "Takes the device for gestured alone (EVIOCGRAB).") { v, _ in ["grab \(v ?? false)"] },
        .bool("passthrough", \.passthrough, "Grabs the device and gives the app a clone of it (TouchRelay).") { v, _ in
            v == true ? ["passthrough: the app reads a clone"] : []
        },
        .bool("cancels_touches", \.cancelsTouches, "With passthrough: a winner's contacts are cancelled for the app.") { v, s in
            s.passthrough == true ? ["  cancels_touches \(v ?? true)"] : []
        },
        Setting("taken_touch_end", \.takenTouchEnd, type: "\"lift\" or \"cancel\"",
                "With passthrough: how a touch the app has ends when a winner takes it: a lift once beyond a tap's slop, or TOUCH_CANCEL (only where the compositor forwards it).",
                read: { t, _, _ in
                    switch t.string("taken_touch_end") {
                    case nil: return nil
                    case "lift": return .lift
                    case "cancel": return .cancel
                    case let other?:
                        t.error("taken_touch_end", "expected \"lift\" (safe under every compositor) or \"cancel\" (TOUCH_CANCEL: only where the compositor forwards it), found \"\(other)\"")
                        return nil
                    }
                },
                describe: { v, s, _ in
                    s.passthrough == true ? ["  taken_touch_end \(v == .cancel ? "cancel (TOUCH_CANCEL)" : "lift (beyond \(fmt(TouchRelay.liftSlopMM)) mm)")"] : []
                }),
        Setting("delay_regions", \.delayRegions, type: "region names, or \"edges\"", "With passthrough: touches beginning there reach the app only once no recognizer wants them.",
                read: { t, c, _ in
                    guard let names = t.strings("delay_regions") else { return nil }
                    if let bad = names.first(where: { $0 != "edges" && !c.regions.contains($0) }) {
                        t.error("delay_regions", "unknown region \"\(bad)\" (defined: \((["edges"] + c.regions.sorted()).joined(separator: ", ")))")
                        return nil
                    }
                    return names
                },
                describe: { v, s, _ in s.passthrough == true ? ["  delay_regions \(v.map { $0.isEmpty ? "none" : $0.joined(separator: ", ") } ?? "none")"] : [] }),
        .bool("map_clone", \.mapClone, "With passthrough: the clone reports screen coordinates (rotation and calibration applied; its axes turned to match).") { v, s in
            s.passthrough == true ? ["  map_clone \(v ?? false)\(v == true ? ": the app gets the rotated and calibrated place (no LIBINPUT_CALIBRATION_MATRIX on the clone)" : "")"] : []
        },
        .number("keep_clone_s", \.keepCloneS, range: 0...maxKeepCloneS, unit: "s",
                "With passthrough: how long the clone stays after its panel went, for the panel's return (the same device, unchanged: then the compositor never sees the touchscreen go); 0: removed at once.") { v, s in
            s.passthrough == true ? ["  keep_clone_s \(fmt(v ?? defaultKeepCloneS)): a clone whose panel goes waits that long for it"] : []
        },
        .int("delay_fingers", \.delayFingers, range: 2...10, "With passthrough: from this many fingers down, touches are held from the app.") { v, s in
            s.passthrough == true ? ["  delay_fingers \(v.map(String.init) ?? "off")"] : []
        },
        .int("app_fingers", \.appFingers, range: 1...9, "With passthrough: the app gets no touch of a sequence with more fingers down than this (its own end as a taken touch); gestures still get them all.") { v, s in
            guard s.passthrough == true, let n = v else { return [] }
            return ["  app_fingers \(n): from \(n + 1) fingers down the sequence is gestured's (the app's touches end, the rest never reach it)"]
        },
        .number("palm_mm", \.palmMM, range: 5...200, unit: "mm", "A contact this large (ABS_MT_TOUCH_MAJOR, else WIDTH_MAJOR) is a palm: cancelled for the recognizers and the app.") { v, _ in
            v.map { ["palms: contacts of \(fmt($0)) mm or more (where the device reports contact size) reach neither recognizers nor the app"] } ?? []
        },
        .bool("quarantine_ghosts", \.quarantineGhosts, "Touches that cannot be a person (lifting unmoved within longest_ghost_ms, or beginning outside the surface) reach no recognizer, app, idle timer or wake.") { v, s in
            guard v == true else { return [] }
            return ["ghost quarantine: a contact lifting within \(fmt(s.longestGhostMS ?? GhostQuarantine.Rules.defaultLongestGhostMS)) ms, unmoved, or beginning outside the surface is dropped (new touches reach recognizers and the app up to that late)"]
        },
        .number("longest_ghost_ms", \.longestGhostMS, range: 1...40, unit: "ms", "With quarantine_ghosts: the longest a ghost lasts (and the most a touch is shown late).") { _, _ in [] },
        .number("read_interval_ms", \.readIntervalMS, range: 0...maxReadIntervalMS, unit: "ms",
                "While fingers are down, the device is read at most this often.") { v, _ in
            guard let ms = v, ms > 0 else { return [] }
            return ["read at most every \(fmt(ms)) ms while fingers are down (frames arriving meanwhile are taken in one wakeup)"]
        },
        Setting("recognizers", \.recognizers, type: "recognizer names", "The recognizers the device runs (default: all).",
                read: { t, c, _ in
                    guard let names = t.strings("recognizers") else { return nil }
                    if let bad = names.first(where: { c.loader.spec($0) == nil }) {
                        t.error("recognizers", "unknown recognizer \"\(bad)\" (known: \(c.loader.knownNames))")
                        return nil
                    }
                    return names
                },
                describe: { v, s, catalog in
                    let names = v ?? catalog.map(\.name)
                    var out = ["recognizers: \(names.joined(separator: ", "))"]
                    for n in names {
                        guard let spec = catalog.first(where: { $0.name == n }), !spec.parameters.isEmpty else { continue }
                        let ps = spec.parameters.map { p in
                            let set = s.parameters[n]?[p.key]
                            return "\(p.key)=\(fmt(set ?? p.defaultValue))\(set != nil ? "*" : "")"  // the key names the unit
                        }
                        out.append("  \(n): \(ps.joined(separator: ", "))")
                    }
                    return out
                }),
        Setting("simultaneous", \.simultaneous, type: "groups of recognizer names", "Recognizers that may win together.",
                read: { t, c, _ in t.value("simultaneous").flatMap { c.loader.readGroups($0, t) } },
                describe: { _, s, _ in
                    let groups = ArenaRulesBuilder.rules(for: s).simultaneous
                    return groups.isEmpty ? [] : ["simultaneous: \(groups.map { $0.map(\.rawValue).joined(separator: "+") }.joined(separator: ", "))"]
                }),
        Setting("requires_failure_of", \.requiresFailureOf, type: "a table of recognizer → recognizers", "A recognizer waits for these to fail.",
                read: { t, c, _ in t.table("requires_failure_of").map { c.loader.readRelation($0, selfMessage: "a recognizer cannot require its own failure") } },
                describe: { _, s, _ in
                    ArenaRulesBuilder.names(ArenaRulesBuilder.rules(for: s).requiresFailureOf).sorted { $0.key < $1.key }.map { "\($0.key) waits for \($0.value.joined(separator: ", ")) to fail" }
                }),
        Setting("yields_to", \.yieldsTo, type: "a table of recognizer → recognizers", "A recognizer begins without waiting for these, and is cancelled if one wins.",
                read: { t, c, s in
                    guard let r = t.table("yields_to") else { return nil }
                    let yields = c.loader.readRelation(r, selfMessage: "a recognizer cannot yield to itself")
                    c.loader.checkYields(yields, requires: s.requiresFailureOf ?? ArenaRulesBuilder.names(RecognizerCatalog.defaultRules.requiresFailureOf), r)
                    return yields
                },
                describe: { _, s, _ in
                    ArenaRulesBuilder.names(ArenaRulesBuilder.rules(for: s).yieldsTo).sorted { $0.key < $1.key }.map {
                        "\($0.key) yields to \($0.value.joined(separator: ", ")): begins without waiting for them, cancelled if one of them wins"
                    }
                }),
        Setting("exclude", \.exclude, type: "region names, or a table of recognizer → region names", "Touches in these regions are not the recognizers' (\"*\": every recognizer).",
                read: { t, c, _ in t.value("exclude").flatMap { c.loader.readExclude($0, t, regions: c.regions) } },
                describe: { _, s, _ in
                    let rules = ArenaRulesBuilder.rules(for: s)
                    let forAll = rules.excludedForAll.isEmpty ? [] : ["every recognizer ignores touches in \(rules.excludedForAll.joined(separator: ", "))"]
                    return forAll + rules.excludedRegions.map { (key: $0.key.rawValue, value: $0.value) }.sorted { $0.key < $1.key }.map {
                        "\($0.key) ignores touches in \($0.value.joined(separator: ", "))"
                    }
                }),
        // Every other key must be a recognizer's parameter table, checked against what the
        // recognizer declares (its `Parameter`s).
        Setting(parameterTablesKey, type: "a table of the recognizer's parameters", merge: .byKey, "A recognizer's tunable values.",
                read: { t, c, s in
                    for key in t.keys where !matchKeys.contains(key) && !settingKeys.contains(key) {
                        guard let spec = c.loader.spec(key) else { continue }  // left for finish(): unknown key
                        guard let p = t.table(key) else { continue }
                        s.parameters[key] = c.loader.readParameters(p, spec: spec)
                    }
                },
                overlay: { s, later in
                    for (r, params) in later.parameters { s.parameters[r, default: [:]].merge(params) { $1 } }
                }),
    ]

    /// The key shown for the tables named after a recognizer (`[defaults.circle]`).
    static let parameterTablesKey = "<recognizer>"
    /// The keys that choose a `[[device]]` section's devices (DeviceMatch).
    static let matchKeys = ["name", "vendor_product", "kind", "property"]
}
