import Evdev
import Glibc
import GestureKit
import Logging

/// The virtual keyboard and pointer that `keys` and `click` bindings write to. Each exists only
/// while the configuration has a binding that needs it: made when such a configuration is
/// loaded (so that the compositor has opened it before the first gesture: events written to a
/// device nobody reads yet are lost), destroyed when a reload drops the last such binding and
/// when gestured stops. If making one fails (no /dev/uinput, no permission), the error is logged
/// and the next action that needs the device tries again. A click is announced at once (a motion
/// to its point) and made `VirtualPointer.announceSeconds` later, on the daemon's timer
/// (`deadline`, `due`): weston 10 loses the press of an unannounced first click.
public final class VirtualOutputs {
    public enum Role: String, Sendable, CaseIterable {
        case keyboard, pointer

        var spec: UInputSpec { self == .keyboard ? VirtualKeyboard.spec : VirtualPointer.spec }
    }

    private var devices: [Role: UInputDevice] = [:]
    private var needed: Set<Role> = []
    /// Clicks announced and waiting for their time, in order.
    private var clicks: [(button: PointerButton, point: Point, at: Double)] = []
    private let log: Logger

    public init(log: Logger) { self.log = log }

    /// The devices that exist now, for status.
    public var present: [(role: Role, device: UInputDevice)] {
        Role.allCases.compactMap { r in devices[r].map { (r, $0) } }
    }

    /// Makes the devices `bindings` need and destroys those they no longer need.
    public func configure(for bindings: [Binding]) {
        needed = Set(bindings.compactMap { b -> Role? in
            switch b.action {
            case .command, .switchMode: nil
            case .keys: .keyboard
            case .click: .pointer
            }
        })
        for role in Role.allCases {
            if needed.contains(role) { _ = device(role) } else { remove(role) }
        }
    }

    /// Types the chords, or announces a click at `at` (normalized screen coordinates) that `due`
    /// makes once its time (`now` + `VirtualPointer.announceSeconds`) has come.
    public func perform(_ action: BoundAction, at point: Point, now: Double) throws(DeviceError) {
        switch action {
        case .command, .switchMode:
            return
        case .keys(let chords):
            guard let keyboard = device(.keyboard) else { throw unavailable(.keyboard) }
            try KeyChord.type(chords, on: keyboard)
        case .click(let button):
            guard let pointer = device(.pointer) else { throw unavailable(.pointer) }
            try VirtualPointer.move(to: point, on: pointer)
            clicks.append((button, point, now + VirtualPointer.announceSeconds))
        }
    }

    /// When the next announced click is due.
    public var deadline: Double? { clicks.first?.at }

    /// Makes the announced clicks whose time has come.
    public func due(now: Double) {
        while let c = clicks.first, c.at <= now {
            clicks.removeFirst()
            do {
                guard let pointer = devices[.pointer] else { throw unavailable(.pointer) }
                try VirtualPointer.click(c.button, at: c.point, on: pointer)
            } catch {
                log.error("\(c.button.rawValue) click lost: \(error)")
            }
        }
    }

    /// Destroys every device (on exit).
    public func removeAll() {
        for role in Role.allCases { remove(role) }
    }

    private func device(_ role: Role) -> UInputDevice? {
        if let d = devices[role] { return d }
        do {
            let d = try UInputDevice(role.spec)
            devices[role] = d
            log.info("virtual \(role.rawValue) \"\(d.name)\" created at \(d.devnode) (\(d.syspath))")
            return d
        } catch {
            log.error("cannot create the virtual \(role.rawValue): \(error)")
            return nil
        }
    }

    private func remove(_ role: Role) {
        guard let d = devices.removeValue(forKey: role) else { return }
        if role == .pointer { clicks.removeAll() }
        let node = d.devnode
        d.destroy()
        log.info("virtual \(role.rawValue) at \(node) destroyed")
    }

    private func unavailable(_ role: Role) -> DeviceError {
        DeviceError(devnode: "/dev/uinput", errno: ENODEV, message: "no virtual \(role.rawValue) (see the error above)")
    }
}
