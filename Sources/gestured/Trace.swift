import ArgumentParser
import Daemon
import Evdev
import GestureKit
import Trace

/// `gestured trace FILE --svg OUT.svg`: draws every stroke of a recording with what the shape
/// recognizers measured (see StrokeTracer and StrokeTraceRenderer), and prints the legend.
struct Trace: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trace",
        abstract: "Draw each stroke of a recording with what the shape recognizers saw.",
        discussion: """
            One panel per stroke (touch-down to all fingers up), in millimetres: the path, the fitted \
            circle (green: recognized as a circle, red: not), the inner square and both boxes, the \
            checkmark turn point, the tickle reversals, and the numbers each rule compared. \
            Render the SVG to PNG with e.g. rsvg-convert.
            """)

    @Argument(help: "An evemu recording (or libinput record YAML).")
    var file: String

    @Option(name: .long, help: "Where to write the SVG.")
    var svg: String

    @OptionGroup var input: RecordingOptions

    @Flag(name: .long, help: "Do not print the legend of each stroke.")
    var quiet = false

    @Option(name: .long, help: "With --config: draw each stroke beside its best-matching taught examples into this SVG.")
    var shapesSvg: String?

    func run() throws {
        let recording: Recording
        do {
            recording = try input.recording(file)
        } catch {
            throw ValidationError(error.description)
        }
        let trace = StrokeTracer.trace(recording)
        var shapeRows: [ShapeMatchTrace.Row] = []
        if let loaded = try input.loadConfig() {
            let matcher = ShapeMatcher(shapes: loaded.shapes.shapes)
            shapeRows = ShapeMatchTrace.rows(trace, matcher: matcher)
            if let shapesSvg {
                let name = file.split(separator: "/").last.map(String.init) ?? file
                let document = ShapeMatchTrace.render(shapeRows, matcher: matcher, title: name)
                do {
                    try FileSystem.writeAtomically(Array(document.utf8), toPath: shapesSvg)
                } catch {
                    throw ValidationError("\(shapesSvg): cannot write the SVG: \(error)")
                }
            }
        } else if shapesSvg != nil {
            throw ValidationError("--shapes-svg needs --config (the taught shapes come from its [shapes] dir)")
        }
        let document = StrokeTraceRenderer.render(trace)
        do {
            try FileSystem.writeAtomically(Array(document.utf8), toPath: svg)
        } catch {
            throw ValidationError("\(svg): cannot write the SVG: \(error)")
        }
        guard !quiet else { return }
        for stroke in trace.strokes {
            for line in StrokeTraceRenderer.legend(stroke, trace: trace) where !line.text.isEmpty {
                StandardStream.writeLine(line.text)
            }
            for (i, turn) in stroke.tickle.turns.enumerated() {
                StandardStream.writeLine("  tickle turn \(i + 1) at (\(mm(turn.point.x)), \(mm(turn.point.y))) mm: travel \(mm(turn.travelMM)) mm, "
                      + "\(SVGCanvas.number(turn.seconds, digits: 3)) s, slope \(SVGCanvas.number(turn.slope)): \(turn.verdict.reason)")
            }
        }
        for row in shapeRows { StandardStream.writeLine("  taught " + ShapeMatchTrace.line(row)) }
        StandardStream.writeLine("wrote \(svg): \(trace.strokes.count) stroke\(trace.strokes.count == 1 ? "" : "s")")
        if let shapesSvg { StandardStream.writeLine("wrote \(shapesSvg): each stroke beside its nearest taught examples") }
    }

    private func mm(_ v: Double) -> String { SVGCanvas.number(v, digits: 1) }
}
