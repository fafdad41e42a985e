import Evdev

/// What the service does when the registry opens or closes a device: the mode applies to a new
/// one, and the fleet hears of both, and of the ghosts and palms kept from the app.
extension GestureService: DeviceRegistryDelegate {
    func opened(_ session: DeviceSession) {
        session.heardChanges = heardChanges
        modes.opened(session, now: MonotonicClock.now())
        fleet?.device(session.label, added: true)
        announceToFleet()
    }

    func closed(_ session: DeviceSession) {
        fleet?.device(session.label, added: false)
        announceToFleet()
    }

    func counted(_ more: ConditioningCount) { fleet?.counted(more) }
}
