/// A component with file descriptors of its own (a device, the udev monitor, the socket, the
/// fleet's link, the spawner): it adds them to the loop itself, each with its handler, and
/// removes them when it closes. Whoever creates it only attaches it.
protocol LoopSource: AnyObject {
    func attach(to loop: EventLoop) throws
}

/// A component that needs waking at times of its own (recognizer timeouts and replays, command
/// timeouts, the modes' timers): the service's one timer is armed for the earliest deadline of
/// all, and wakes those whose time has come.
protocol TimedSource: AnyObject {
    /// When `due` has something to do next (monotonic seconds); nil: nothing pending.
    var deadline: Double? { get }
    func due(now: Double)
}
