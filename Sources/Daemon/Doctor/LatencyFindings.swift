import Evdev
import Glibc

/// The doctor's latency lines: the running daemon's own figures (`status`, DeviceLatency), one
/// line per live device, so an installer sees whether gestured or what reads it is slow.
extension Doctor {
    /// Asks the daemon on `fd` (connected) for its status; nil when it does not answer within
    /// `timeout` seconds or the reply is not one.
    static func status(of fd: Int32, timeout: Double = 3) -> JSONValue? {
        var request = "{\"status\":true}\n"
        let sent = request.withUTF8 { bytes in (try? FileIO.write(fd, all: UnsafeRawBufferPointer(bytes))) != nil }
        guard sent else { return nil }
        var reply: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        let end = MonotonicClock.now() + timeout
        // A status is a few kB per device; 4 MB is beyond any.
        while !reply.contains(10), reply.count < 4 << 20 {
            let left = end - MonotonicClock.now()
            guard left > 0 else { return nil }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard retryingInterrupts({ poll(&p, 1, Int32(left * 1000) + 1) }) > 0 else { return nil }
            guard let n = try? chunk.withUnsafeMutableBytes({ buffer throws(Errno) in try FileIO.read(fd, into: buffer) }), n > 0 else { return nil }
            reply += chunk[0..<n]
        }
        guard let nl = reply.firstIndex(of: 10) else { return nil }
        return try? JSONReader.parse(String(decoding: reply[..<nl], as: UTF8.self))["status"]
    }

    /// One line per live device of a daemon's `status`: each path's p50/p99 and count.
    static func latencyFindings(status: JSONValue) -> [DoctorFinding] {
        (status["devices"]?.array ?? []).compactMap { d in
            guard let name = d["name"]?.string, let latency = d["latency"] else { return nil }
            let paths = DeviceLatency.Path.allCases.map { path -> String in
                let figures = latency[path.rawValue]
                let count = figures?["count"]?.int ?? 0
                guard count > 0, let p50 = figures?["p50_ms"]?.number, let p99 = figures?["p99_ms"]?.number else { return "\(path.rawValue) –" }
                return "\(path.rawValue) \(format(p50))/\(format(p99)) ms (\(count))"
            }
            return .note("latency of \"\(name)\" from the kernel's frame time, p50/p99 (count): " + paths.joined(separator: ", "))
        }
    }

    private static func format(_ ms: Double) -> String {
        let hundredths = Int((ms * 100).rounded())
        let frac = hundredths % 100
        return "\(hundredths / 100).\(frac < 10 ? "0" : "")\(frac)"
    }
}
