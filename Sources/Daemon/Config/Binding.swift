import Evdev
import GestureKit

/// What a binding runs: an argv (no shell) or, when asked for explicitly, a shell command line.
public enum BoundCommand: Sendable, Equatable {
    case argv([String])
    case shell(String)

    public var argv: [String] {
        switch self {
        case .argv(let a): a
        case .shell(let s): ["/bin/sh", "-c", s]
        }
    }
}

/// What a binding does: run a command, or type keys / click through gestured's own virtual
/// devices (no process: microseconds instead of a spawn). One action per binding; two bindings
/// on the same gesture do both.
public enum BoundAction: Sendable, Equatable {
    case command(BoundCommand)
    /// Chords typed in order on the virtual keyboard.
    case keys([KeyChord])
    /// A click at the gesture's centre with the virtual pointer.
    case click(PointerButton)
    /// Switches the kiosk's mode (`switch_mode`); with `for`, back to the mode before after
    /// that many seconds.
    case switchMode(String, for: Double?)

    public var isCommand: Bool { if case .command = self { true } else { false } }
}

/// A continuous quantity a binding can step along: one mechanism for "every 10 mm of pan",
/// "every 0.1 of pinch scale", "every 15° of rotation".
public enum StepQuantity: String, Sendable, CaseIterable {
    case translationMM = "translation_mm"
    case translationXMM = "translation_x_mm"
    case translationYMM = "translation_y_mm"
    case scale
    case rotationDeg = "rotation_deg"
    case duration = "duration_s"

    public func value(of e: GestureEvent) -> Double? {
        switch self {
        case .translationMM: e.translationMM?.length
        case .translationXMM: e.translationMM?.x
        case .translationYMM: e.translationMM?.y
        case .scale: e.scale
        case .rotationDeg: e.rotation.map { $0 * 180 / Double.pi }
        case .duration: e.duration
        }
    }

    /// The gestures that report this quantity.
    public var gestures: [GestureKind] {
        switch self {
        case .translationMM, .translationXMM, .translationYMM: [.pan]
        case .scale: [.pinch]
        case .rotationDeg: [.rotate]
        case .duration: [.longPress]
        }
    }
}

/// A `[[bind]]` rule: a gesture filter → an action. The filter's fields read as the binding's
/// own (`b.gesture`, `b.phases`, …).
@dynamicMemberLookup
public struct Binding: Sendable, Equatable {
    public var index: Int
    public var filter: GestureFilter
    public var step: Double?
    public var stepOf: StepQuantity?
    public var action: BoundAction
    /// Commands only: seconds before a run is killed, and how many runs may overlap.
    public var timeout: Double
    public var cooldown: Double
    public var maxConcurrent: Int
    /// `in_mode`: the modes it is active in; nil: every mode.
    public var inModes: [String]? = nil

    public subscript<T>(dynamicMember key: KeyPath<GestureFilter, T>) -> T { filter[keyPath: key] }

    /// Everything but the step: does this gesture event concern the binding in this mode?
    public func matches(_ e: GestureEvent, device label: DeviceLabel, mode: String) -> Bool {
        isActive(in: mode) && filter.matches(e, device: label)
    }

    public func isActive(in mode: String) -> Bool { inModes?.contains(mode) ?? true }
}
