import ArgumentParser
import Daemon
import Evdev
import GestureKit

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

    @Option(name: .long, help: "The device description, when it is not in the recording or beside it.")
    var device: String?

    @Flag(name: .long, help: "Do not print the legend of each stroke.")
    var quiet = false

    func run() throws {
        let recording: Recording
        do {
            recording = try Recording.load(path: file, descriptionPath: device)
        } catch {
            throw ValidationError(error.description)
        }
        let trace = StrokeTracer.trace(recording)
        let document = StrokeTraceRenderer.render(trace)
        do {
            try FileSystem.writeAtomically(Array(document.utf8), toPath: svg)
        } catch {
            throw ValidationError("\(svg): cannot write the SVG: \(error)")
        }
        guard !quiet else { return }
        for stroke in trace.strokes {
            for line in StrokeTraceRenderer.legend(stroke, trace: trace) where !line.text.isEmpty {
                print(line.text)
            }
            for (i, turn) in stroke.tickle.turns.enumerated() {
                print("  tickle turn \(i + 1) at (\(mm(turn.point.x)), \(mm(turn.point.y))) mm: travel \(mm(turn.travelMM)) mm, "
                      + "\(SVGCanvas.number(turn.seconds, digits: 3)) s, slope \(SVGCanvas.number(turn.slope)): \(turn.verdict.reason)")
            }
        }
        print("wrote \(svg): \(trace.strokes.count) stroke\(trace.strokes.count == 1 ? "" : "s")")
    }

    private func mm(_ v: Double) -> String { SVGCanvas.number(v, digits: 1) }
}
