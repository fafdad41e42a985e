import CLinux
import Evdev
import Glibc

/// The daemon's one thread: epoll over every file descriptor (devices, udev monitor, socket,
/// clients, signals, the timer). Nothing polls: when nothing happens, epoll_wait sleeps.
public final class EventLoop {
    public typealias Handler = (_ events: UInt32) -> Void

    private let epfd: Int32
    private var handlers: [Int32: Handler] = [:]
    private var running = false

    public init() throws {
        epfd = epoll_create1(Int32(EPOLL_CLOEXEC))
        if epfd < 0 { throw SystemError("epoll_create1") }
    }

    deinit { close(epfd) }

    public static let readable = UInt32(EPOLLIN.rawValue)
    public static let writable = UInt32(EPOLLOUT.rawValue)
    public static let hangup = UInt32(EPOLLHUP.rawValue) | UInt32(EPOLLERR.rawValue)

    public func add(_ fd: Int32, events: UInt32 = EventLoop.readable, _ handler: @escaping Handler) throws {
        var ev = epoll_event()
        ev.events = events
        ev.data.fd = fd
        if epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev) < 0 { throw SystemError("epoll_ctl add") }
        handlers[fd] = handler
    }

    /// Changes the events watched for `fd` (a client with output pending also waits for EPOLLOUT).
    public func modify(_ fd: Int32, events: UInt32) {
        var ev = epoll_event()
        ev.events = events
        ev.data.fd = fd
        _ = epoll_ctl(epfd, EPOLL_CTL_MOD, fd, &ev)
    }

    /// Stops watching `fd`; the caller closes it.
    public func remove(_ fd: Int32) {
        _ = epoll_ctl(epfd, EPOLL_CTL_DEL, fd, nil)
        handlers[fd] = nil
    }

    /// Runs until `stop()`; `afterEvents` runs once after each batch (re-arms the timer).
    public func run(afterEvents: () -> Void) {
        running = true
        var events = [epoll_event](repeating: epoll_event(), count: 64)
        afterEvents()
        while running {
            let n = events.withUnsafeMutableBufferPointer { buffer in
                retryingInterrupts { epoll_wait(epfd, buffer.baseAddress, Int32(buffer.count), -1) }
            }
            if n < 0 { break }
            for i in 0..<Int(n) {
                let fd = events[i].data.fd
                // A handler may have removed this fd (or another one of this batch).
                handlers[fd]?(events[i].events)
                if !running { break }
            }
            if running { afterEvents() }
        }
    }

    public func stop() { running = false }
}

/// A failed system call, with errno's message.
public struct SystemError: Error, CustomStringConvertible {
    public var call: String
    public var code: Int32

    public init(_ call: String, code: Int32 = errno) {
        self.call = call
        self.code = code
    }

    public var description: String { "\(call): \(Errno(rawValue: code))" }
}
