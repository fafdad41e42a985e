import Evdev
import GestureKit

/// Each one-finger stroke of a recording beside the taught examples it came nearest to, with
/// their scores (`gestured trace --config … --shapes-svg`): why a stroke was, or was not, taken
/// for a taught shape.
public enum ShapeMatchTrace {
    public struct Row: Sendable {
        public var stroke: Int
        /// The stroke normalized like an example (nil: not a one-finger stroke).
        public var points: [Point]?
        /// Best first: each shape's nearest example.
        public var matches: [ShapeMatcher.Match]
    }

    /// Shapes shown beside each stroke.
    public static let shown = 3

    public static func rows(_ trace: RecordingTrace, matcher: ShapeMatcher) -> [Row] {
        trace.strokes.map { s in
            guard s.paths.count == 1, let path = s.paths.first, !path.cancelled else {
                return Row(stroke: s.index, points: nil, matches: [])
            }
            var stroke = Stroke(capacity: path.points.count)
            for p in path.points { stroke.append(mm: p, position: p) }
            var resampled: [Point] = []
            stroke.resample(count: ShapeExample.pointCount, into: &resampled)
            return Row(stroke: s.index, points: ShapeExample.normalized(resampled), matches: matcher.ranked(resampled))
        }
    }

    /// One legend line per stroke.
    public static func line(_ row: Row) -> String {
        guard row.points != nil else { return "stroke \(row.stroke): not a one-finger stroke" }
        guard let best = row.matches.first else { return "stroke \(row.stroke): no taught shapes" }
        let list = row.matches.prefix(shown).map { "\($0.shape) #\($0.example + 1) \(SVGCanvas.number($0.score, digits: 3))" }
        let verdict = best.isAccepted ? "→ \(best.shape)" : "→ no shape (best \(SVGCanvas.number(best.score, digits: 3)) < threshold \(SVGCanvas.number(best.threshold, digits: 3)))"
        return "stroke \(row.stroke): \(list.joined(separator: ", ")) \(verdict)"
    }

    static let cell = 170.0

    public static func render(_ rows: [Row], matcher: ShapeMatcher, title: String) -> String {
        let columns = 1 + shown
        var svg = SVGCanvas(width: Double(columns) * cell + 20, height: 40 + Double(max(rows.count, 1)) * (cell + 10))
        svg.element("rect", [("width", "100%"), ("height", "100%"), ("fill", "white")])
        svg.element("text", [("x", "10"), ("y", "22"), ("font-size", "14"), ("font-weight", "bold")],
                    text: "\(title): each stroke (left) beside the nearest example of its best \(shown) taught shapes")
        for (r, row) in rows.enumerated() {
            let y = 40 + Double(r) * (cell + 10)
            cellDrawing(row.points, label: "stroke \(row.stroke)", colour: "#1d3557", x: 10, y: y, into: &svg)
            for (c, m) in row.matches.prefix(shown).enumerated() {
                let example = matcher.shapes.first { $0.name == m.shape }?.examples[m.example].points
                let label = "\(m.shape) #\(m.example + 1): \(SVGCanvas.number(m.score, digits: 3))\(m.isAccepted ? " ✓" : "")"
                cellDrawing(example, label: label, colour: m.isAccepted ? "#2a9d3a" : "#d62828", x: 10 + Double(c + 1) * cell, y: y, into: &svg)
            }
        }
        return svg.document
    }

    /// A normalized path (longer side 1, centred) drawn in a cell, its start marked with a dot.
    static func cellDrawing(_ points: [Point]?, label: String, colour: String, x: Double, y: Double, into svg: inout SVGCanvas) {
        svg.element("rect", [("x", SVGCanvas.number(x)), ("y", SVGCanvas.number(y)), ("width", SVGCanvas.number(cell - 8)),
                             ("height", SVGCanvas.number(cell - 8)), ("fill", "#fafafa"), ("stroke", "#cccccc")])
        svg.element("text", [("x", SVGCanvas.number(x + 6)), ("y", SVGCanvas.number(y + 16)), ("font-size", "11")], text: label)
        guard let points, let first = points.first else { return }
        let k = cell * 0.6, cx = x + (cell - 8) / 2, cy = y + 12 + (cell - 20) / 2
        let placed = points.map { Point(x: cx + $0.x * k, y: cy + $0.y * k) }
        svg.polyline(placed, [("stroke", colour), ("stroke-width", "2")])
        svg.element("circle", [("cx", SVGCanvas.number(cx + first.x * k)), ("cy", SVGCanvas.number(cy + first.y * k)), ("r", "4"), ("fill", colour)])
    }
}
