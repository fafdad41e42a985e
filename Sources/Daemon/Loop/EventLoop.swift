import CLinux
import Evdev
import GestureKit
import Glibc

/// The daemon's one thread: epoll over every file descriptor (devices, udev monitor, socket,
/// clients, signals, the timer). Nothing polls: when nothing happens, epoll_wait sleeps.
public final class EventLoop {
    public typealias Handler = (_ events: UInt32) -> Void

    private let epfd: Int32
    /// Indexed by fd (the kernel hands out the lowest free one, so they are few and dense): a
    /// wakeup finds its handler without hashing. Each handler is boxed and called borrowed
    /// (`handlers`): a closure copied out of an array was retained and released around every
    /// call (speed: docs/architecture.md). The loop owns each box (`boxes`, the same objects).
    private var handlers: [Borrowed<Box>?] = []
    private var boxes: [Box?] = []
    /// Handlers removed while a batch runs (a handler may remove itself), kept until it is over.
    private var retired: [Box] = []
    private var running = false

    private final class Box {
        let handler: Handler
        init(_ handler: @escaping Handler) { self.handler = handler }
    }

    public init() throws {
        epfd = epoll_create1(Int32(EPOLL_CLOEXEC))
        if epfd < 0 { throw SystemError("epoll_create1") }
    }

    deinit {
        close(epfd)
    }

    public static let readable = UInt32(EPOLLIN.rawValue)
    public static let writable = UInt32(EPOLLOUT.rawValue)
    public static let hangup = UInt32(EPOLLHUP.rawValue) | UInt32(EPOLLERR.rawValue)

    public func add(_ fd: Int32, events: UInt32 = EventLoop.readable, _ handler: @escaping Handler) throws {
        var ev = epoll_event()
        ev.events = events
        ev.data.fd = fd
        if epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev) < 0 { throw SystemError("epoll_ctl add") }
        let slot = Int(fd)
        if slot >= handlers.count {
            handlers += repeatElement(nil, count: slot + 1 - handlers.count)
            boxes += repeatElement(nil, count: slot + 1 - boxes.count)
        }
        if let old = boxes[slot] { retired.append(old) }
        let box = Box(handler)
        boxes[slot] = box
        handlers[slot] = Borrowed(box)
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
        guard Int(fd) < handlers.count, let old = boxes[Int(fd)] else { return }
        handlers[Int(fd)] = nil
        boxes[Int(fd)] = nil
        retired.append(old)
    }

    /// Runs until `stop()`; `afterEvents` runs once after each batch (re-arms the timer).
    public func run(afterEvents: () -> Void) {
        running = true
        let capacity = 64
        let events = UnsafeMutablePointer<epoll_event>.allocate(capacity: capacity)
        defer { events.deallocate() }
        afterEvents()
        while running {
            let n = retryingInterrupts { gestured_epoll_wait(epfd, events, Int32(capacity), -1) }  // shim.h
            if n < 0 { break }
            for i in 0..<Int(n) {
                let fd = Int(events[i].data.fd)
                // A handler may have removed this fd (or another one of this batch): its box
                // lives on in `retired` until the batch is over.
                if fd < handlers.count, let box = handlers[fd] {
                    box.with { $0.handler(events[i].events) }
                }
                if !running { break }
            }
            if !retired.isEmpty { retired.removeAll() }
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
