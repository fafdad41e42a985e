import ArgumentParser
import Daemon
import GestureKit
import Evdev
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
        let path = socket ?? UnixListener.defaultSocketPath(environment: ProcessEnvironment.current)
        let fd = UnixConnection.connect(path: path)
        guard fd >= 0 else {
            throw ValidationError("cannot connect to \(path): \(Errno.current)")
        }
        defer { close(fd) }
        if !gesture.isEmpty {
            let names = gesture.map { "\"\($0)\"" }.joined(separator: ",")
            var line = "{\"subscribe\":[\(names)]}\n"
            line.withUTF8 { try? FileIO.write(fd, all: UnsafeRawBufferPointer($0)) }
        }
        // On a terminal, one line per gesture (LiveView); to a pipe or file, one line per event.
        var live = !json && isatty(STDOUT_FILENO) == 1 ? LiveView() : nil
        let width = Self.terminalWidth()
        var pending: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = (try? buf.withUnsafeMutableBytes { buffer throws(Errno) in try FileIO.read(fd, into: buffer) }) ?? 0
            if n == 0 { break }
            pending.append(contentsOf: buf[0..<n])
            while let nl = pending.firstIndex(of: 10) {
                let line = String(decoding: pending[0..<nl], as: UTF8.self)
                pending.removeSubrange(0...nl)
                if live != nil {
                    Self.write(live!.take(line), width: width)
                } else {
                    // Written at once, unbuffered: a pipe reader sees each gesture as it happens.
                    StandardStream.writeOutput((json ? line : EventLine.readable(line)) + "\n")
                }
            }
        }
        if live != nil { Self.write(live!.close(), width: width) }
        if !json { StandardStream.writeLine("connection closed") }
    }

    /// A line kept open is cut to the terminal's width: one that wrapped could not be rewritten
    /// in place (the carriage return goes back to the start of its last row only).
    private static func write(_ outputs: [LiveView.Output], width: Int) {
        for o in outputs {
            switch o {
            case .rewrite(let text): StandardStream.writeOutput("\r\u{1B}[K" + String(text.prefix(max(width - 1, 10))))
            case .finish(let text): StandardStream.writeOutput("\r\u{1B}[K" + text + "\n")
            }
        }
    }

    private static func terminalWidth() -> Int {
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }
}

/// One JSON line as a readable line, in the spirit of `libinput debug-events`:
/// `Wacom ISDv4 E6 Finger  circle  recognized  +12.345s  1 finger  (0.52, 0.41)  radius_mm=31.4 …`
enum EventLine {
    /// Escaped (`Printable`) as a whole: the daemon's JSON escapes control characters, but a
    /// string decoded here is raw again, and the daemon on the other end may be older or not ours.
    static func readable(_ line: String) -> String { Printable.escaping(decoded(line)) }

    private static func decoded(_ line: String) -> String {
        guard let value = try? JSONReader.parse(line), let obj = value.object else { return line }
        if obj["event"]?.string == "mode", let mode = obj["mode"]?.string {
            return "mode \(mode)  (was \(obj["previous"]?.string ?? "?"); \(obj["reason"]?.string ?? "?"))"
        }
        guard let gesture = obj["gesture"]?.string else { return line }  // a reply: as is
        let device = obj["device"]?.string ?? "?"
        let phase = obj["phase"]?.string ?? ""
        let time = obj["time"]?.number.map { fixed($0, places: 3) + "s" } ?? ""
        let fingers = obj["fingers"]?.int.map { "\($0) finger\($0 == 1 ? "" : "s")" } ?? ""
        var at = ""
        if let c = obj["center"], let x = c["x"]?.number, let y = c["y"]?.number {
            at = "(\(fixed(x, places: 3)), \(fixed(y, places: 3)))"
        }
        let skip: Set<String> = ["gesture", "device", "device_id", "phase", "time", "fingers", "center", "center_mm"]
        var extras: [String] = []
        for key in obj.keys.sorted() where !skip.contains(key) {
            guard let v = obj[key], v != .null else { continue }
            if let x = v["x"], let y = v["y"] {
                extras.append("\(key)=(\(text(x)), \(text(y)))")
            } else {
                extras.append("\(key)=\(text(v))")
            }
        }
        let head = [pad(device, to: max(device.count, 24)), pad(gesture, to: 11), pad(phase, to: 10), time, fingers, at]
        return (head + extras).joined(separator: "  ")
    }

    /// A value as it reads best in a line: strings bare, whole numbers without ".0".
    private static func text(_ v: JSONValue) -> String {
        switch v {
        case .null: "null"
        case .bool(let b): b ? "true" : "false"
        case .number(let x): v.int.map(String.init) ?? String(x)
        case .string(let s): s
        case .array(let a): "[" + a.map(text).joined(separator: ", ") + "]"
        case .object(let o): "{" + o.keys.sorted().map { "\($0): \(o[$0].map(text) ?? "")" }.joined(separator: ", ") + "}"
        }
    }

    /// `x` with exactly `places` decimals, as printf's %.Nf.
    static func fixed(_ x: Double, places: Int) -> String { DecimalText.string(x, places: places, padded: true) }

    /// Pads with spaces, or cuts, to exactly `length` characters (NSString.padding's behaviour).
    static func pad(_ s: String, to length: Int) -> String {
        s.count >= length ? String(s.prefix(length)) : s + String(repeating: " ", count: length - s.count)
    }
}
