/// A recording that cannot be read: where and why, as "file:line: message".
public struct RecordingError: Error, CustomStringConvertible, Sendable, Equatable {
    public var file: String
    /// 1-based; 0 when the problem is the file as a whole.
    public var line: Int
    public var message: String

    public init(file: String, line: Int, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String { line > 0 ? "\(file):\(line): \(message)" : "\(file): \(message)" }
}
