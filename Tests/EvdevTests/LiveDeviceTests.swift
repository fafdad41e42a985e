import Evdev
import Glibc
import Testing

/// This machine has no /dev/input and no udev daemon, so these tests drive the fallback path
/// (scan + inotify) on a directory of their own and the error paths of opening a node. The
/// kernel-level tests in the VM cover real nodes, udev and SYN_DROPPED from the kernel.
@Suite("live devices: monitor fallback and open errors")
struct LiveDeviceTests {
    func freshDirectory() -> String { directory(of: temporaryFile("keep", "")) }

    @Test("without udev the monitor scans the directory, says so once, and exposes an inotify fd")
    func scanMode() {
        let dir = freshDirectory()
        let monitor = DeviceMonitor(inputDirectory: dir, udevControl: dir + "/no-udev-control")
        #expect(monitor.mode == .scan)
        #expect(monitor.notice?.contains("no udev daemon") == true)
        #expect(monitor.fd >= 0)
        #expect(monitor.enumerate().isEmpty)
        // A node that is not an evdev device is not a touch device: no change reported.
        _ = temporaryFile("event7", "not a device", dir: dir)
        #expect(monitor.receive().isEmpty)
        // Deleting a node never reported is not a removal either.
        unlink(dir + "/event7")
        #expect(monitor.receive().isEmpty)
        close(open(dir + "/event8", O_CREAT | O_WRONLY, 0o600))
        #expect(monitor.enumerate().isEmpty)
    }

    @Test("the input directory may appear later: the monitor watches its parent")
    func directoryAppearsLater() {
        let parent = freshDirectory()
        let dir = parent + "/input"
        let monitor = DeviceMonitor(inputDirectory: dir, udevControl: parent + "/none")
        #expect(monitor.fd >= 0)
        #expect(monitor.enumerate().isEmpty)
        mkdir(dir, 0o755)
        #expect(monitor.receive().isEmpty)
        // Now watching the directory itself: a new non-device node is looked at and skipped.
        _ = temporaryFile("event0", "x", dir: dir)
        #expect(monitor.receive().isEmpty)
    }

    @Test("opening a missing node or a non-evdev file is a clear error")
    func openErrors() {
        do {
            _ = try EvdevDevice(devnode: "/nonexistent/event0")
            Issue.record("expected an error")
        } catch {
            #expect(error.errno == ENOENT)
            #expect(error.description.hasPrefix("/nonexistent/event0: cannot open"))
        }
        let file = temporaryFile("event1", "plain file")
        do {
            _ = try EvdevDevice(devnode: file)
            Issue.record("expected an error")
        } catch {
            #expect(error.message == "not an evdev device")
        }
    }
}
