@testable import Daemon
import GestureKit
import Testing

/// A device's latencies as `status` writes them and `doctor` reads them back: one line per live
/// device, each path's p50/p99 and count, "–" for a path nothing took yet. (The figures of a
/// real device and clone: VM scenario 22.)
@Suite struct DeviceLatencyTests {
    @Test func statusFiguresReachTheDoctorsLine() throws {
        var latency = DeviceLatency()
        for ms in 1...100 { latency.record(.clone, seconds: Double(ms) / 10_000) }  // 0.1–10 ms
        latency.record(.delivered, seconds: 0.002)
        latency.record(.command, seconds: -1)  // a clock step counts as 0
        var w = JSONWriter()
        w.beginObject()
        w.objects("devices", [("Panel", latency)]) { w, d in
            w.key("name"); w.string(d.0)
            w.object("latency") { d.1.write(&$0) }
        }
        w.endObject()
        let status = try JSONReader.parse(w.text)
        let clone = try #require(status["devices"]?.array?.first?["latency"]?["clone"])
        #expect(clone["count"]?.int == 100)
        // Nearest rank: the 50th and 99th of 0.1…10 ms, within their buckets (≤ 12.5 % above).
        let p50 = try #require(clone["p50_ms"]?.number), p99 = try #require(clone["p99_ms"]?.number)
        #expect(p50 >= 5.0 && p50 <= 5.0 * 1.125 && p99 >= 9.9 && p99 <= 10.0, "p50 \(p50) p99 \(p99)")
        #expect(status["devices"]?.array?.first?["latency"]?["keys"]?["p50_ms"] == nil)
        let lines = Doctor.latencyFindings(status: status)
        #expect(lines.count == 1)
        let line = try #require(lines.first)
        #expect(line.verdict == .note)
        #expect(line.text.contains("latency of \"Panel\""), "\(line.text)")
        #expect(line.text.contains("clone \(Self.twoDecimals(p50))/\(Self.twoDecimals(p99)) ms (100)"), "\(line.text)")
        #expect(line.text.contains("delivered 2.00/2.00 ms (1)") && line.text.contains("keys –") && line.text.contains("command 0.00/0.00 ms (1)"), "\(line.text)")
    }

    static func twoDecimals(_ x: Double) -> String {
        let h = Int((x * 100).rounded())
        return "\(h / 100).\(h % 100 < 10 ? "0" : "")\(h % 100)"
    }
}
