/// A recorded input session: the device's description and its events, from an evemu file
/// (description and events together, or events with a separate .desc/.device file) or a
/// `libinput record` YAML file. Replayed through the same DevicePipeline as a live device.
public struct Recording: Sendable {
    public var path: String
    public var info: DeviceInfo
    public var events: [InputEvent]
    /// The latest event time a recording may have, in seconds (since boot or the epoch: either
    /// is far below). Later times could not become a timeval or a timer deadline.
    public static let maxEventTime = 1e11

    public init(path: String, info: DeviceInfo, events: [InputEvent]) {
        self.path = path
        self.info = info
        self.events = events
    }

    /// Loads a recording. The device description comes from `descriptionPath` when given,
    /// else from the file itself, else from the sibling `.desc`/`.device` file whose name
    /// is the longest prefix of this one's (`Wacom_ISDv4_E6_Finger.single-tap-center.events`
    /// → `Wacom_ISDv4_E6_Finger.desc`). The device id is the recording's file name without
    /// its extension.
    public static func load(path: String, descriptionPath: String? = nil) throws(RecordingError) -> Recording {
        try parse(TextFile.read(path), path: path, descriptionPath: descriptionPath)
    }

    /// What `load` does once the file is read (the fuzz targets start here).
    public static func parse(_ text: String, path: String, descriptionPath: String? = nil) throws(RecordingError) -> Recording {
        let id = dropExtension(splitPath(path).name)
        if LibinputRecordParser.looksLikeYAML(text) {
            var p = LibinputRecordParser(file: path)
            let (info, events) = try p.parse(text, id: id)
            if let descriptionPath {
                return Recording(path: path, info: try describe(descriptionPath, id: id), events: events)
            }
            return Recording(path: path, info: info, events: events)
        }
        var parser = EvemuParser(file: path)
        try parser.parse(text)
        let info: DeviceInfo
        if let descriptionPath {
            info = try describe(descriptionPath, id: id)
        } else if parser.hasDescription {
            info = try parser.deviceInfo(id: id)
        } else if let sibling = siblingDescription(of: path) {
            info = try describe(sibling, id: id)
        } else {
            throw RecordingError(file: path, line: 0, message:
                "no device description: the file has no N:/I:/B:/A: lines and no .desc or .device file beside it "
                + "has a name that starts this file's name (pass one with --device)")
        }
        return Recording(path: path, info: info, events: parser.events)
    }

    /// Reads a description file (evemu N:/I:/P:/B:/A: lines) into a DeviceInfo.
    public static func describe(_ path: String, id: String) throws(RecordingError) -> DeviceInfo {
        let text = try TextFile.read(path)
        var parser = EvemuParser(file: path)
        try parser.parse(text)
        return try parser.deviceInfo(id: id)
    }

    /// The longest-prefix `.desc`/`.device` file in the same directory. The prefix must end
    /// at a word boundary ('.', '_', '-') so that "Pad" does not match "Pads".
    public static func siblingDescription(of path: String) -> String? {
        let (dir, name) = splitPath(path)
        var best: (String, Int)?
        for entry in TextFile.list(dir) {
            guard entry.hasSuffix(".desc") || entry.hasSuffix(".device") else { continue }
            let stem = dropExtension(entry)
            guard !stem.isEmpty, name.hasPrefix(stem) else { continue }
            let next = name.dropFirst(stem.count).first
            guard next == "." || next == "_" || next == "-" else { continue }
            if best == nil || stem.count > best?.1 ?? 0 { best = (entry, stem.count) }
        }
        guard let best else { return nil }
        return dir == "." && !path.hasPrefix("./") ? best.0 : dir + "/" + best.0
    }
}

extension EvemuParser {
    func deviceInfo(id: String) throws(RecordingError) -> DeviceInfo {
        guard let name else { throw RecordingError(file: file, line: 0, message: "description has no N: (name) line") }
        guard let ids else { throw RecordingError(file: file, line: 0, message: "description has no I: (id) line") }
        let caps = caps
        for (code, axis) in caps.axes where axis.minimum == 0 && axis.maximum == 0
            && (code == ABS.X || code == ABS.Y || code == ABS.MT_POSITION_X || code == ABS.MT_POSITION_Y) {
            throw RecordingError(file: file, line: 0, message:
                "axis 0x\(String(code, radix: 16)) is declared in B: but has no A: line with its range")
        }
        return DeviceInfo(name: name, id: id, bus: ids.bus, vendor: ids.vendor, product: ids.product,
                          version: ids.version, capabilities: caps)
    }
}
