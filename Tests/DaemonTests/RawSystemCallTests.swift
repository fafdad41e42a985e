import CLinux
import Glibc
import Testing

/// The loop's raw read and epoll_wait (CLinux shim.h) answer as glibc's do: the count, or -1 with
/// errno set, which the read path and the loop branch on (EAGAIN ends a read, EINTR retries).
@Suite struct RawSystemCallTests {
    /// A non-blocking pipe: (read end, write end).
    func nonBlockingPipe() throws -> (Int32, Int32) {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        for fd in fds { try #require(fcntl(fd, F_SETFL, O_NONBLOCK) == 0) }
        return (fds[0], fds[1])
    }

    @Test func readReturnsWhatIsQueued() throws {
        let (r, w) = try nonBlockingPipe()
        defer { close(r); close(w) }
        #expect(write(w, "abc", 3) == 3)
        var buffer = [UInt8](repeating: 0, count: 8)
        #expect(gestured_read(r, &buffer, 8) == 3)
        #expect(buffer.prefix(3) == [97, 98, 99])
    }

    @Test func readOfAnEmptyQueueFailsWithEAGAIN() throws {
        let (r, w) = try nonBlockingPipe()
        defer { close(r); close(w) }
        var buffer = [UInt8](repeating: 0, count: 8)
        errno = 0
        #expect(gestured_read(r, &buffer, 8) == -1)
        #expect(errno == EAGAIN)
    }

    // -1, not a closed fd: tests run in parallel, and another may be given the closed number.
    @Test func readOfABadFdFailsWithEBADF() {
        var buffer = [UInt8](repeating: 0, count: 8)
        #expect(gestured_read(-1, &buffer, 8) == -1)
        #expect(errno == EBADF)
    }

    @Test func epollWaitReportsTheReadableFd() throws {
        let (r, w) = try nonBlockingPipe()
        let epfd = epoll_create1(Int32(EPOLL_CLOEXEC))
        defer { close(r); close(w); close(epfd) }
        var ev = epoll_event()
        ev.events = UInt32(EPOLLIN.rawValue)
        ev.data.fd = r
        try #require(epoll_ctl(epfd, EPOLL_CTL_ADD, r, &ev) == 0)
        var events = [epoll_event](repeating: epoll_event(), count: 4)
        #expect(gestured_epoll_wait(epfd, &events, 4, 0) == 0)
        #expect(write(w, "x", 1) == 1)
        #expect(gestured_epoll_wait(epfd, &events, 4, 1000) == 1)
        #expect(events[0].data.fd == r)
        #expect(events[0].events & UInt32(EPOLLIN.rawValue) != 0)
    }

    @Test func epollWaitOnABadFdFailsWithEBADF() {
        var events = [epoll_event](repeating: epoll_event(), count: 1)
        #expect(gestured_epoll_wait(-1, &events, 1, 0) == -1)
        #expect(errno == EBADF)
    }
}
