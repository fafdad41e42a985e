import GestureKit

/// A kiosk's modes (`[[mode]]`, `[modes]`), its screen (`[screen]`) and its secret sequences
/// (`[[sequence]]`). Without `[[mode]]` the daemon has one implicit mode, `default`, in which
/// everything runs and the app gets every touch: the behaviour of a config written before modes.
public struct ModesConfig: Sendable, Equatable {
    /// In file order; never empty (the implicit `default` mode when the file names none).
    public var modes: [KioskMode] = [KioskMode(name: KioskMode.implicitName)]
    /// The mode the daemon starts in: `[modes] initial`, else the first `[[mode]]`.
    public var initial = KioskMode.implicitName
    public var screen = ScreenConfig()
    public var sequences: [SecretSequence] = []

    public init() {}

    public func mode(named name: String) -> KioskMode? { modes.first { $0.name == name } }
    public var names: [String] { modes.map(\.name) }
}

/// One `[[mode]]`.
public struct KioskMode: Sendable, Equatable {
    /// The mode of a config without `[[mode]]` sections.
    public static let implicitName = "default"

    public var name: String
    /// Which recognizers run in this mode (within each device's own `recognizers`); nil: all.
    public var recognizers: [String]?
    /// The app under a passed-through device gets its touches (`passthrough = "all"`, the
    /// default), or nothing (`"none"`): gestures are still recognized, and bound.
    public var appGetsTouches = true
    /// Seconds without a touch-down after which the daemon goes to `idleMode`.
    public var idleTimeout: Double?
    public var idleMode: String?
    /// The screen is dark in this mode: the first touch wakes it (runs `[screen] wake`, goes to
    /// this mode) and never reaches the app.
    public var wakeMode: String?

    public init(name: String) { self.name = name }

    /// Whether a recognizer runs in this mode.
    public func runs(_ recognizer: String) -> Bool { recognizers?.contains(recognizer) ?? true }
}

/// `[screen]`: how gestured knows the display is dark, and what wakes it.
public struct ScreenConfig: Sendable, Equatable {
    /// A sysfs file read at each first touch-down: a DRM connector's `dpms` ("Off" is dark) or
    /// a backlight's `bl_power` (non-zero is dark). No polling: it is read only then.
    public var state: String?
    /// Run when a touch wakes the screen (the touch itself never reaches the app).
    public var wake: BoundCommand?

    public init() {}
}

/// `[[sequence]]`: gestures in a given order within a time limit (taps in the corners), hard
/// to make by accident; when it completes, its action runs (usually `switch_mode`).
public struct SecretSequence: Sendable, Equatable {
    public var name: String
    public var steps: [GestureFilter]
    /// Seconds from the first step's gesture to the last one's.
    public var within: Double
    /// The action, conditions (`in_mode`) and cooldown, as a binding on the last step.
    public var binding: Binding
    /// `steps_file`: where the steps are kept apart from the world-readable config, and the key
    /// that named it; the steps are read from it when the config is resolved (ConfigResolver).
    public var stepsFile: StepsFile? = nil
    /// 16 steps of a line or two each: a steps file larger than this is not one.
    public static let maxStepsFileBytes = 16 * 1024

    public struct StepsFile: Sendable, Equatable {
        public var path: String
        /// The config's key path, e.g. `sequence[1].steps_file`, for errors.
        public var key: String
        /// The credential systemd hands it over as (LoadCredential=; the generator writes it).
        public var credential: String
    }

    /// The regions the steps name: a passed-through touch beginning there is held until no
    /// gesture can take it, so the sequence's taps never press what is under them.
    public var regions: [String] { steps.compactMap(\.region) }
}
