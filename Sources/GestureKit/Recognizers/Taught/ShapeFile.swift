/// The `NAME.shape` text format: small, line-oriented, human-readable and diffable, so taught
/// shapes can be reviewed, versioned and copied between machines. `gestured learn` writes it;
/// adding examples appends lines.
///
///     # comments and blank lines are ignored
///     gestured-shape 4
///     name zorro
///     threshold 0.912 calibrated
///     example 2026-11-22T00:31:07Z zorro.evemu stroke 1
///     person alice
///     points -0.421,-0.5 -0.3,-0.498 …
///
/// `threshold SCORE calibrated` (version 2 on; optional) is the threshold ShapeCalibration chose
/// when the examples were last changed; a file without one (every version 1 file) is calibrated
/// when it is loaded, and so is a version 2 or 3 file: its threshold was a score of an older
/// matching (version 2: 32 points per stroke, not ShapeExample.pointCount, its examples are
/// resampled; version 3: no turning correction, ShapeMatcher.turningExponent).
/// `example DATE SOURCE…` starts an example (the source is the rest of the line); an optional
/// `person NAME` (version 5: who drew it, `learn --person`) and its `points` line follow: x,y
/// pairs along the stroke, centroid at 0, longer side of the box 1, y down. Parsing is pure (text in, shape or located error out); reading the file is
/// the caller's.
public enum ShapeFile {
    /// The newest version, read with every version from 1. Written: 5 when an example says who
    /// drew it, else 4 (which a gestured from before `person` lines reads too).
    public static let version = 5
    /// Limits, so that a damaged or hostile file is an error, not a stall.
    public static let maxBytes = 1 << 20
    public static let maxExamples = 200
    public static let maxPoints = 256
    public static let maxLineBytes = 16384

    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        public var line: Int
        public var message: String
        public var description: String { "line \(line): \(message)" }
    }

    public static func parse(_ text: String) throws(ParseError) -> TaughtShape {
        guard text.utf8.count <= maxBytes else {
            throw ParseError(line: 0, message: "larger than \(maxBytes) bytes")
        }
        var reading = Reading()
        var number = 0
        var last = 1  // the last line with content: where an error about the end is reported
        // "\r\n" is one Character in Swift: split on it too, or a CRLF file would be one line.
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            number += 1
            guard raw.utf8.count <= maxLineBytes else { throw ParseError(line: number, message: "line longer than \(maxLineBytes) bytes") }
            let line = raw.drop { $0 == " " || $0 == "\t" }
            if line.isEmpty || line.hasPrefix("#") { continue }
            last = number
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
            // A line of blanks and a stray "\r" has no words (found by the fuzzer: it trapped here).
            guard let keyword = words.first else { continue }
            guard reading.fileVersion > 0 || keyword == "gestured-shape" else {
                throw ParseError(line: number, message: "expected \"gestured-shape \(version)\" first (is this a shape file?)")
            }
            try reading.take(keyword, words, line: line, number: number)
        }
        return try reading.shape(last: last)
    }

    /// What `parse` has read so far, line by line.
    private struct Reading {
        var fileVersion = 0
        var name: String?
        var threshold: Double?
        var examples: [ShapeExample] = []
        var pendingExample: (line: Int, date: String, source: String, person: String)?

        /// One line with content, its first word `keyword`.
        mutating func take(_ keyword: Substring, _ words: [Substring], line: Substring, number: Int) throws(ParseError) {
            switch keyword {
            case "gestured-shape":
                guard fileVersion == 0 else { throw ParseError(line: number, message: "\"gestured-shape\" given twice") }
                guard words.count == 2, let v = Int(words[1]), (1...version).contains(v) else {
                    throw ParseError(line: number, message: "unsupported format \"\(line)\" (this gestured reads versions 1 to \(version))")
                }
                fileVersion = v
            case "threshold":
                guard fileVersion >= 2 else { throw ParseError(line: number, message: "a threshold line needs \"gestured-shape 2\"") }
                guard threshold == nil else { throw ParseError(line: number, message: "\"threshold\" given twice") }
                guard words.count == 3, let v = Double(words[1]), (0...1).contains(v), words[2] == "calibrated" else {
                    throw ParseError(line: number, message: "expected \"threshold SCORE calibrated\" with SCORE within 0…1 (set one by hand in the config's [shapes.NAME] threshold)")
                }
                threshold = v
            case "name":
                guard name == nil else { throw ParseError(line: number, message: "\"name\" given twice") }
                guard words.count == 2, TaughtShape.isValidName(String(words[1])) else {
                    throw ParseError(line: number, message: "expected \"name NAME\" with letters, digits, _ or - (at most 64)")
                }
                name = String(words[1])
            case "example":
                if let p = pendingExample { throw ParseError(line: p.line, message: "example without a points line") }
                guard words.count >= 2 else { throw ParseError(line: number, message: "expected \"example DATE SOURCE\"") }
                guard examples.count < maxExamples else { throw ParseError(line: number, message: "more than \(maxExamples) examples") }
                pendingExample = (number, String(words[1]), words.dropFirst(2).joined(separator: " "), "")
            case "person":
                guard fileVersion >= 5 else { throw ParseError(line: number, message: "a person line needs \"gestured-shape 5\"") }
                guard let p = pendingExample else { throw ParseError(line: number, message: "person line without an example line before it") }
                guard p.person.isEmpty else { throw ParseError(line: number, message: "\"person\" given twice for one example") }
                guard words.count == 2, TaughtShape.isValidName(String(words[1])) else {
                    throw ParseError(line: number, message: "expected \"person NAME\" with letters, digits, _ or - (at most 64)")
                }
                pendingExample?.person = String(words[1])
            case "points":
                guard let p = pendingExample else { throw ParseError(line: number, message: "points line without an example line before it") }
                let pairs = words.dropFirst()
                guard pairs.count >= 2, pairs.count <= maxPoints else {
                    throw ParseError(line: number, message: "an example needs 2 to \(maxPoints) points, found \(pairs.count)")
                }
                var points: [Point] = []
                points.reserveCapacity(pairs.count)
                for (i, pair) in pairs.enumerated() {
                    let xy = pair.split(separator: ",", omittingEmptySubsequences: false)
                    guard xy.count == 2, let x = Double(xy[0]), let y = Double(xy[1]), x.isFinite, y.isFinite, abs(x) <= 10, abs(y) <= 10 else {
                        throw ParseError(line: number, message: "point \(i + 1) \"\(pair)\" is not x,y with numbers within ±10")
                    }
                    points.append(Point(x: x, y: y))
                }
                var length = 0.0
                for i in 1..<points.count { length += points[i - 1].distance(to: points[i]) }
                guard length > 0 else { throw ParseError(line: number, message: "all points are the same: no stroke") }
                examples.append(ShapeExample(points: points, source: p.source, date: p.date, person: p.person))
                pendingExample = nil
            default:
                throw ParseError(line: number, message: "unknown line \"\(keyword)\" (expected gestured-shape, name, threshold, example, person or points)")
            }
        }

        /// The shape, once every line is read; `last` is the last line with content.
        func shape(last: Int) throws(ParseError) -> TaughtShape {
            if let p = pendingExample { throw ParseError(line: p.line, message: "example without a points line") }
            guard fileVersion > 0 else { throw ParseError(line: last, message: "empty: expected \"gestured-shape \(version)\"") }
            guard let name else { throw ParseError(line: last, message: "no \"name\" line") }
            guard !examples.isEmpty else { throw ParseError(line: last, message: "no examples") }
            guard let threshold, fileVersion >= 4 else { return TaughtShape(name: name, examples: examples) }
            return TaughtShape(name: name, examples: examples, threshold: threshold, thresholdOrigin: .calibrated)
        }
    }

    /// The file's text. Writing a shape read from a file reproduces that file's examples in
    /// order, so appending examples appends lines (clean diffs).
    public static func text(_ shape: TaughtShape) -> String {
        var out = """
            # gestured taught shape: `gestured learn \(shape.name)` wrote it; copy it into a [shapes] dir.
            # Each example: when and where it was drawn, then its points (x,y along the stroke,
            # centroid at 0, longer side of the box 1, y down). The threshold is calibrated from the
            # examples; set one, or rotation, in [shapes.\(shape.name)].
            gestured-shape \(shape.examples.contains { !$0.person.isEmpty } ? version : 4)
            name \(shape.name)

            """
        if shape.thresholdOrigin == .calibrated { out += "threshold \(number(shape.threshold)) calibrated\n" }
        for e in shape.examples {
            // One line each: a source with a line break in it must not start a line of its own.
            let source = String(e.source.map { $0.isNewline ? " " : $0 })
            out += "example \(e.date.isEmpty ? "-" : e.date)\(source.isEmpty ? "" : " " + source)\n"
            if !e.person.isEmpty { out += "person \(e.person)\n" }
            out += "points" + e.points.map { " \(number($0.x)),\(number($0.y))" }.joined() + "\n"
        }
        return out
    }

    private static func number(_ x: Double) -> String { DecimalText.string(x, places: 3) }
}
