@testable import Daemon
import GestureKit
import Glibc
import Testing

/// A loop handler reaches its owner through a Borrowed, as SessionWakeup does.
@Suite struct EventLoopBorrowTests {
    final class Owner {
        var count = 0
    }

    @Test func aLoopHandlerReachesItsOwnerThroughIt() throws {
        let loop = try EventLoop()
        let owner = Owner()
        let me = Borrowed(owner)
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        try loop.add(fds[0]) { [unowned loop] _ in
            me.with { $0.count += 1 }
            loop.stop()
        }
        var byte: UInt8 = 1
        #expect(write(fds[1], &byte, 1) == 1)
        loop.run {}
        #expect(owner.count == 1)
    }
}
