/// Placeholder until milestone 2: libinput record YAML is detected and refused clearly.
struct LibinputRecordParser {
    let file: String

    static func looksLikeYAML(_ text: String) -> Bool {
        for line in text.split(separator: "\n").prefix(20) {
            if line.hasPrefix("version:") || line.hasPrefix("libinput:") || line.hasPrefix("---") { return true }
        }
        return false
    }

    mutating func parse(_ text: String, id: String) throws(RecordingError) -> (DeviceInfo, [InputEvent]) {
        throw RecordingError(file: file, line: 1, message: "libinput record YAML is not supported yet")
    }
}
