import ArgumentParser
import Daemon
import Foundation
import Glibc

struct Listen: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "listen",
        abstract: "Connect to the daemon's socket and print gestures as they happen.")

    @Flag(name: .long, help: "Print the raw JSON lines.")
    var json = false

    @Option(name: .long, help: "Socket path (default: the daemon's default for this user).")
    var socket: String?

    @Option(name: .long, parsing: .upToNextOption, help: "Only these gestures (e.g. --gesture circle pan).")
    var gesture: [String] = []

    func run() throws {
        let path = socket ?? GestureService.defaultSocketPath(environment: ProcessInfo.processInfo.environment)
        let fd = UnixConnection.connect(path: path)
        guard fd >= 0 else {
            throw ValidationError("cannot connect to \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        if !gesture.isEmpty {
            let names = gesture.map { "\"\($0)\"" }.joined(separator: ",")
            let line = "{\"subscribe\":[\(names)]}\n"
            _ = line.withCString { write(fd, $0, strlen($0)) }
        }
        var pending: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            pending.append(contentsOf: buf[0..<n])
            while let nl = pending.firstIndex(of: 10) {
                let line = String(decoding: pending[0..<nl], as: UTF8.self)
                pending.removeSubrange(0...nl)
                // Written at once, unbuffered: a pipe reader sees each gesture as it happens.
                FileHandle.standardOutput.write(Data(((json ? line : EventLine.readable(line)) + "\n").utf8))
            }
        }
        if !json { print("connection closed") }
    }
}

/// One JSON line as a readable line, in the spirit of `libinput debug-events`:
/// `Wacom ISDv4 E6 Finger  circle  recognized  +12.345s  1 finger  (0.52, 0.41)  radius_mm=31.4 …`
enum EventLine {
    static func readable(_ line: String) -> String {
        guard let data = line.data(using: .utf8),
            let obj = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        else { return line }
        guard let gesture = obj["gesture"] as? String else { return line }  // a reply: as is
        let device = obj["device"] as? String ?? "?"
        let phase = obj["phase"] as? String ?? ""
        let time = (obj["time"] as? Double).map { String(format: "%.3fs", $0) } ?? ""
        let fingers = (obj["fingers"] as? Int).map { "\($0) finger\($0 == 1 ? "" : "s")" } ?? ""
        var at = ""
        if let c = obj["center"] as? [String: Any], let x = c["x"] as? Double, let y = c["y"] as? Double {
            at = String(format: "(%.3f, %.3f)", x, y)
        }
        let skip: Set<String> = ["gesture", "device", "device_id", "phase", "time", "fingers", "center", "center_mm"]
        var extras: [String] = []
        for key in obj.keys.sorted() where !skip.contains(key) {
            guard let v = obj[key], !(v is NSNull) else { continue }
            if let p = v as? [String: Any], let x = p["x"], let y = p["y"] {
                extras.append("\(key)=(\(x), \(y))")
            } else {
                extras.append("\(key)=\(v)")
            }
        }
        let head = [device.padding(toLength: max(device.count, 24), withPad: " ", startingAt: 0),
                    gesture.padding(toLength: 11, withPad: " ", startingAt: 0),
                    phase.padding(toLength: 10, withPad: " ", startingAt: 0), time, fingers, at]
        return (head + extras).joined(separator: "  ")
    }
}
