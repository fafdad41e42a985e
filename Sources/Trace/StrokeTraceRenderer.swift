import Evdev
import GestureKit

/// Draws a RecordingTrace as SVG: one panel per stroke in a grid, each panel's drawing in the
/// stroke's own millimetres (y down, as on the screen), scaled to fit, with a scale bar and a
/// legend of the numbers the rules compared. Colours: the fit circle is green when the circle
/// recognizer recognized the stroke and red when it did not.
public enum StrokeTraceRenderer {
    // Layout, in SVG pixels.
    static let drawingWidth = 420.0
    static let drawingHeight = 300.0
    static let margin = 16.0
    static let lineHeight = 14.0
    static let legendLines = 13.0
    static let titleHeight = 78.0
    static let minimumWidth = 900.0
    static let maxColumns = 4

    static var panelWidth: Double { drawingWidth + 2 * margin }
    static var panelHeight: Double { drawingHeight + 2 * margin + 18 + legendLines * lineHeight }

    enum Colour {
        static let path = "#1d3557"
        static let otherFinger = "#8d99ae"
        static let samples = "#457b9d"
        static let recognized = "#2a9d3a"
        static let rejected = "#d62828"
        static let innerSquare = "#f4a261"
        static let pathBox = "#1f77b4"
        static let checkmark = "#7b2cbf"
        static let tickleCounted = "#e76f51"
        static let tickleRejected = "#6c757d"
        static let text = "#222222"
        static let panel = "#fafafa"
    }

    public static func render(_ trace: RecordingTrace) -> String {
        let n = trace.strokes.count
        let columns = max(1, min(maxColumns, n))
        let rows = max(1, (n + columns - 1) / columns)
        var svg = SVGCanvas(width: max(minimumWidth, Double(columns) * panelWidth), height: titleHeight + Double(rows) * panelHeight)
        svg.element("rect", [("width", "100%"), ("height", "100%"), ("fill", "white")])
        title(trace, into: &svg)
        if n == 0 {
            svg.element("text", [("x", "16"), ("y", SVGCanvas.number(titleHeight + 24)), ("font-size", "14")],
                        text: "no strokes: no finger touched down in this recording")
        }
        for (i, stroke) in trace.strokes.enumerated() {
            let x = Double(i % columns) * panelWidth
            let y = titleHeight + Double(i / columns) * panelHeight
            panel(stroke, trace: trace, x: x, y: y, into: &svg)
        }
        return svg.document
    }

    // MARK: Title and colour key

    static func title(_ trace: RecordingTrace, into svg: inout SVGCanvas) {
        let name = trace.path.split(separator: "/").last.map(String.init) ?? trace.path
        svg.element("text", [("x", "12"), ("y", "20"), ("font-size", "15"), ("font-weight", "bold"), ("fill", Colour.text)],
                    text: "gestured trace: \(name), \(trace.strokes.count) stroke\(trace.strokes.count == 1 ? "" : "s")")
        svg.element("text", [("x", "12"), ("y", "38"), ("font-size", "12"), ("fill", Colour.text)],
                    text: "\(trace.deviceName), \(SVGCanvas.number(trace.surface.widthMM, digits: 0))×"
                        + "\(SVGCanvas.number(trace.surface.heightMM, digits: 0)) mm · drawings in mm, y down, each panel to its own scale")
        // The key: a swatch and a word for each thing drawn.
        let key: [(String, String, Bool)] = [
            (Colour.path, "path (● start, ○ end, ◦ measured points)", false), (Colour.recognized, "fit circle: circle", false),
            (Colour.rejected, "fit circle: not a circle", false), (Colour.innerSquare, "inner square", true),
            (Colour.pathBox, "path box", true), (Colour.recognized, "fit box", true),
            (Colour.checkmark, "checkmark turn", false), (Colour.tickleCounted, "tickle reversal (× rejected)", false),
        ]
        var x = 12.0, y = 56.0
        for (colour, label, dashed) in key {
            let width = 30 + Double(label.count) * 6.2
            if x + width > svg.width { x = 12; y += 16 }  // wrap the key on narrow pictures
            svg.element("line", [("x1", SVGCanvas.number(x)), ("y1", SVGCanvas.number(y)), ("x2", SVGCanvas.number(x + 18)), ("y2", SVGCanvas.number(y)),
                                 ("stroke", colour), ("stroke-width", "2.5")] + (dashed ? [("stroke-dasharray", "3 2")] : []))
            svg.element("text", [("x", SVGCanvas.number(x + 22)), ("y", SVGCanvas.number(y + 4)), ("font-size", "11"), ("fill", Colour.text)],
                        text: label)
            x += width
        }
    }

    // MARK: One panel

    /// The millimetre window a panel shows: the paths, and the fit circle unless it is far larger
    /// than the stroke (a nearly straight line fits a huge circle; it is clipped, and the legend
    /// gives its radius).
    static func window(_ stroke: StrokeTrace) -> Rect {
        var r = stroke.box
        if r.isEmpty { r = Rect(minX: 0, minY: 0, maxX: 1, maxY: 1) }
        let size = max(r.width, r.height, 10)
        if let a = stroke.circle, let fit = a.fit, fit.radius <= size {
            r.include(Point(x: a.fitBox.minX, y: a.fitBox.minY))
            r.include(Point(x: a.fitBox.maxX, y: a.fitBox.maxY))
        }
        // At least 20 mm across (a tap is a dot in a 20 mm window), a margin, and the drawing
        // area's aspect, so that the clip (the window) is the whole drawing area.
        let c = r.center
        var halfW = max(r.width * 0.54, 10), halfH = max(r.height * 0.54, 10)
        let aspect = drawingWidth / drawingHeight
        if halfW < halfH * aspect { halfW = halfH * aspect } else { halfH = halfW / aspect }
        return Rect(minX: c.x - halfW, minY: c.y - halfH, maxX: c.x + halfW, maxY: c.y + halfH)
    }

    static func panel(_ stroke: StrokeTrace, trace: RecordingTrace, x: Double, y: Double, into svg: inout SVGCanvas) {
        let w = window(stroke)
        let k = min(drawingWidth / w.width, drawingHeight / w.height)  // px per mm
        let ox = x + margin + (drawingWidth - w.width * k) / 2
        let oy = y + margin + (drawingHeight - w.height * k) / 2
        let px = 1 / k  // one pixel, in mm
        func n(_ v: Double) -> String { SVGCanvas.number(v, digits: 3) }

        svg.open("g", [("class", "stroke"), ("id", "stroke-\(stroke.index)")])
        svg.element("rect", [("x", SVGCanvas.number(x + 4)), ("y", SVGCanvas.number(y + 4)),
                             ("width", SVGCanvas.number(panelWidth - 8)), ("height", SVGCanvas.number(panelHeight - 8)),
                             ("fill", Colour.panel), ("stroke", "#cccccc"), ("rx", "4")])
        // The drawing: user units are the stroke's millimetres.
        svg.open("g", [("class", "drawing"),
                       ("transform", "translate(\(n(ox)) \(n(oy))) scale(\(n(k))) translate(\(n(-w.minX)) \(n(-w.minY)))")])
        let clip = "clip-\(stroke.index)"
        svg.open("clipPath", [("id", clip)])
        svg.element("rect", [("x", n(w.minX)), ("y", n(w.minY)), ("width", n(w.width)), ("height", n(w.height))])
        svg.close("clipPath")
        svg.open("g", [("clip-path", "url(#\(clip))")])
        drawCircle(stroke, px: px, into: &svg)
        drawPaths(stroke, px: px, into: &svg)
        drawCheckmark(stroke, px: px, into: &svg)
        drawTickle(stroke, px: px, into: &svg)
        svg.close("g")
        svg.close("g")
        scaleBar(k: k, x: x + margin, y: y + margin + drawingHeight + 12, into: &svg)
        legend(stroke, trace: trace, x: x + margin, y: y + margin + drawingHeight + 34, into: &svg)
        svg.close("g")
    }

    static func drawPaths(_ stroke: StrokeTrace, px: Double, into svg: inout SVGCanvas) {
        for (i, path) in stroke.paths.enumerated() {
            guard let first = path.points.first, let last = path.points.last else { continue }
            let colour = i == 0 ? Colour.path : Colour.otherFinger
            svg.polyline(path.points, [("class", "path"), ("stroke", colour), ("stroke-width", SVGCanvas.number(2 * px, digits: 4)),
                                       ("stroke-linejoin", "round"), ("stroke-linecap", "round")]
                         + (path.cancelled ? [("stroke-dasharray", "\(SVGCanvas.number(4 * px, digits: 4)) \(SVGCanvas.number(3 * px, digits: 4))")] : []))
            svg.element("circle", [("class", "path-start"), ("cx", SVGCanvas.number(first.x, digits: 3)),
                                   ("cy", SVGCanvas.number(first.y, digits: 3)), ("r", SVGCanvas.number(4 * px, digits: 4)),
                                   ("fill", colour)])
            svg.element("circle", [("class", "path-end"), ("cx", SVGCanvas.number(last.x, digits: 3)),
                                   ("cy", SVGCanvas.number(last.y, digits: 3)), ("r", SVGCanvas.number(3.5 * px, digits: 4)),
                                   ("fill", "white"), ("stroke", colour), ("stroke-width", SVGCanvas.number(1.5 * px, digits: 4))])
        }
        // The evenly spaced points the circle rules measured: small rings on the path.
        for p in stroke.circlePoints {
            svg.element("circle", [("class", "sample"), ("cx", SVGCanvas.number(p.x, digits: 3)), ("cy", SVGCanvas.number(p.y, digits: 3)),
                                   ("r", SVGCanvas.number(1.6 * px, digits: 4)), ("fill", "white"), ("stroke", Colour.samples),
                                   ("stroke-width", SVGCanvas.number(0.8 * px, digits: 4))])
        }
    }

    static func drawCircle(_ stroke: StrokeTrace, px: Double, into svg: inout SVGCanvas) {
        guard let a = stroke.circle else { return }
        func n(_ v: Double) -> String { SVGCanvas.number(v, digits: 3) }
        func rect(_ r: Rect, _ attributes: [(String, String)]) {
            guard !r.isEmpty else { return }
            svg.element("rect", [("x", n(r.minX)), ("y", n(r.minY)), ("width", n(r.width)), ("height", n(r.height)),
                                 ("fill", "none")] + attributes)
        }
        let dash = "\(SVGCanvas.number(4 * px, digits: 4)) \(SVGCanvas.number(3 * px, digits: 4))"
        rect(a.pathBox, [("class", "path-box"), ("stroke", Colour.pathBox), ("stroke-width", n(px)), ("stroke-dasharray", dash)])
        guard let fit = a.fit else { return }
        let colour = a.isRecognized ? Colour.recognized : Colour.rejected
        rect(a.fitBox, [("class", "fit-box"), ("stroke", colour), ("stroke-width", n(1.2 * px)),
                        ("stroke-dasharray", "\(n(2 * px)) \(n(2 * px))")])
        // The inner square: no point may fall in it (an S, an 8, a spiral pass through).
        let h = a.innerHalfSide
        svg.element("rect", [("class", "inner-square"), ("x", n(fit.center.x - h)), ("y", n(fit.center.y - h)),
                             ("width", n(2 * h)), ("height", n(2 * h)), ("fill", Colour.innerSquare), ("fill-opacity", "0.2"),
                             ("stroke", Colour.innerSquare), ("stroke-width", n(1.5 * px))])
        for p in stroke.circlePoints where abs(p.x - fit.center.x) < h && abs(p.y - fit.center.y) < h {
            svg.element("circle", [("class", "inside"), ("cx", n(p.x)), ("cy", n(p.y)), ("r", n(3 * px)), ("fill", Colour.rejected)])
        }
        svg.element("circle", [("class", a.isRecognized ? "fit-circle recognized" : "fit-circle rejected"),
                               ("cx", n(fit.center.x)), ("cy", n(fit.center.y)), ("r", n(fit.radius)),
                               ("fill", "none"), ("stroke", colour), ("stroke-width", n(2 * px))])
        let c = fit.center, arm = 5 * px
        svg.element("path", [("class", "fit-center"), ("d", "M\(n(c.x - arm)) \(n(c.y))H\(n(c.x + arm))M\(n(c.x)) \(n(c.y - arm))V\(n(c.y + arm))"),
                             ("stroke", colour), ("stroke-width", n(1.5 * px))])
    }

    static func drawCheckmark(_ stroke: StrokeTrace, px: Double, into svg: inout SVGCanvas) {
        guard let a = stroke.checkmark, a.verdict != .tooFewPoints else { return }
        func n(_ v: Double) -> String { SVGCanvas.number(v, digits: 3) }
        let opacity = a.isRecognized ? "1" : "0.55"
        svg.polyline([a.start, a.turn, a.end], [("class", "checkmark-strokes"), ("stroke", Colour.checkmark),
                                               ("stroke-width", n(1.2 * px)), ("stroke-dasharray", "\(n(2 * px)) \(n(2 * px))"),
                                               ("opacity", opacity)])
        let t = a.turn, d = 5 * px
        svg.element("path", [("class", "checkmark-turn"), ("d", "M\(n(t.x)) \(n(t.y - d))L\(n(t.x + d)) \(n(t.y))L\(n(t.x)) \(n(t.y + d))L\(n(t.x - d)) \(n(t.y))Z"),
                             ("fill", Colour.checkmark), ("opacity", opacity)])
        svg.element("text", [("x", n(t.x + 7 * px)), ("y", n(t.y + 12 * px)), ("font-size", n(10 * px)),
                             ("fill", Colour.checkmark), ("opacity", opacity)], text: "turn")
    }

    static func drawTickle(_ stroke: StrokeTrace, px: Double, into svg: inout SVGCanvas) {
        func n(_ v: Double) -> String { SVGCanvas.number(v, digits: 3) }
        var counted = 0
        for turn in stroke.tickle.turns {
            let p = turn.point
            if turn.verdict == .counted {
                counted += 1
                let d = 5 * px
                svg.element("path", [("class", "tickle-reversal"), ("d", "M\(n(p.x)) \(n(p.y - d))L\(n(p.x + d)) \(n(p.y + d))L\(n(p.x - d)) \(n(p.y + d))Z"),
                                     ("fill", Colour.tickleCounted)])
                svg.element("text", [("x", n(p.x + 6 * px)), ("y", n(p.y - 5 * px)), ("font-size", n(10 * px)),
                                     ("fill", Colour.tickleCounted)], text: "\(counted)")
            } else {
                let d = 3.5 * px
                svg.element("path", [("class", "tickle-rejected"), ("d", "M\(n(p.x - d)) \(n(p.y - d))L\(n(p.x + d)) \(n(p.y + d))M\(n(p.x + d)) \(n(p.y - d))L\(n(p.x - d)) \(n(p.y + d))"),
                                     ("stroke", Colour.tickleRejected), ("stroke-width", n(1.5 * px))])
            }
        }
    }

    /// A bar of a round length (1, 2, 5, 10, 20, 50 … mm) near 80 px long.
    static func scaleBar(k: Double, x: Double, y: Double, into svg: inout SVGCanvas) {
        var length = 1.0
        for candidate in [1.0, 2, 5, 10, 20, 50, 100, 200, 500] where candidate * k <= 110 { length = candidate }
        let n = SVGCanvas.number
        svg.element("path", [("class", "scale-bar"), ("d", "M\(n(x, 2)) \(n(y - 4, 2))V\(n(y, 2))H\(n(x + length * k, 2))V\(n(y - 4, 2))"),
                             ("fill", "none"), ("stroke", Colour.text), ("stroke-width", "1.2")])
        svg.element("text", [("x", n(x + length * k + 6, 2)), ("y", n(y, 2)), ("font-size", "11"), ("fill", Colour.text)],
                    text: "\(SVGCanvas.number(length, digits: 0)) mm")
    }

    // MARK: Legend

    /// The legend's lines, each with its colour: the numbers the rules compared, with the limit
    /// beside each. Public so that `gestured trace` can print the same text.
    public static func legend(_ stroke: StrokeTrace, trace: RecordingTrace) -> [(text: String, colour: String)] {
        func f(_ v: Double, _ digits: Int) -> String { SVGCanvas.number(v, digits: digits) }
        var lines: [(String, String)] = []
        let samples = stroke.paths.first?.points.count ?? 0
        lines.append(("stroke \(stroke.index) · t \(f(stroke.startTime - trace.startTime, 3))–\(f(stroke.endTime - trace.startTime, 3)) s "
                      + "(\(f(stroke.endTime - stroke.startTime, 2)) s) · \(stroke.maxFingers) finger\(stroke.maxFingers == 1 ? "" : "s")"
                      + " · \(samples) sample\(samples == 1 ? "" : "s")", Colour.text))

        lines += circleLines(stroke, trace: trace)
        lines += checkmarkLines(stroke, trace: trace)
        let t = stroke.tickle
        let tr = trace.tickleRules
        let tickled = stroke.tickleState == .recognized
        lines.append(("tickle: " + (tickled ? "recognized" : "no") + " · reversals \(t.bestCount) of \(tr.reversals) (best run)",
                      tickled ? Colour.recognized : Colour.rejected))
        var byVerdict: [(TickleLegVerdict, Int)] = []
        for turn in t.turns {
            if let k = byVerdict.firstIndex(where: { $0.0 == turn.verdict }) { byVerdict[k].1 += 1 } else { byVerdict.append((turn.verdict, 1)) }
        }
        lines.append(("  turns \(t.turns.count)" + byVerdict.map { " · \($0.1) \(shortName($0.0))" }.joined(), Colour.text))
        let kinds = stroke.events.map { $0.kind.rawValue }
        lines.append(("events: " + (kinds.isEmpty ? "none" : kinds.joined(separator: ", ")), Colour.text))
        return lines
    }

    /// The legend's circle lines (four, blank when not measured).
    private static func circleLines(_ stroke: StrokeTrace, trace: RecordingTrace) -> [(String, String)] {
        func f(_ v: Double, _ digits: Int) -> String { SVGCanvas.number(v, digits: digits) }
        var lines: [(String, String)] = []
        let cr = trace.circleRules
        if let a = stroke.circle {
            lines.append(("circle: " + (a.isRecognized ? "recognized" : "no — " + a.verdict.reason),
                          a.isRecognized ? Colour.recognized : Colour.rejected))
            if let fit = a.fit {
                lines.append(("  fit error \(f(a.fitError, 3)) (≤ \(f(cr.tolerance, 2))) · radius \(f(fit.radius, 1)) mm (≥ \(f(cr.minRadiusMM, 1)))",
                              Colour.text))
                lines.append(("  turns \(f(a.turns, 2)) \(a.direction == .clockwise ? "cw" : "ccw") (\(f(cr.minTurns, 2))…\(f(cr.maxTurns, 1)))"
                              + " · back \(f(a.backtrackTurns, 3)) (≤ \(f(cr.maxBacktrackTurns, 2)))", Colour.text))
                lines.append(("  coverage \(f(a.boxCoverage, 3)) (> \(f(1 - cr.tolerance, 2))) · evenness \(f(a.turningDeviation, 3)) rad"
                              + " (≤ \(f(cr.maxTurningDeviation, 2))) · inside \(a.pointsInside)", Colour.text))
            } else {
                lines.append(("", Colour.text)); lines.append(("", Colour.text)); lines.append(("", Colour.text))
            }
        } else {
            lines.append(("circle: not measured — \(unfinished(stroke.circleState))", Colour.rejected))
            lines.append(("", Colour.text)); lines.append(("", Colour.text)); lines.append(("", Colour.text))
        }
        return lines
    }

    /// The legend's checkmark lines (five, blank when not measured).
    private static func checkmarkLines(_ stroke: StrokeTrace, trace: RecordingTrace) -> [(String, String)] {
        func f(_ v: Double, _ digits: Int) -> String { SVGCanvas.number(v, digits: digits) }
        var lines: [(String, String)] = []
        let kr = trace.checkmarkRules
        if let a = stroke.checkmark {
            lines.append(("checkmark: " + (a.isRecognized ? "recognized" : "no — " + a.verdict.reason),
                          a.isRecognized ? Colour.recognized : Colour.rejected))
            if a.verdict != .tooFewPoints {
                lines.append(("  first \(f(a.firstMM, 1)) mm at \(f(a.firstAngle, 0))° · second \(f(a.secondMM, 1)) mm at \(f(a.secondAngle, 0))°"
                              + " · hook \(f(a.hookMM, 1)) mm (≤ \(f(kr.maxHook, 2)) × first)", Colour.text))
                lines.append(("  ratio \(f(a.ratio, 2)) (≥ \(f(kr.minRatio, 2))) · bow \(f(a.firstBow, 2))/\(f(a.secondBow, 2))"
                              + " (≤ \(f(kr.maxFirstBow, 2))/\(f(kr.maxBow, 2))) · back \(f(a.backtrackMM, 1)) mm", Colour.text))
            } else {
                lines.append(("", Colour.text)); lines.append(("", Colour.text))
            }
            if let score = a.score {
                // Each number the check-versus-v score weighed, and what it added.
                let m = kr.model, x = a.features
                lines.append(("  ln ratio \(f(x.legRatio, 2)) · turn at \(f(x.turnPosition, 2)) of the width · rise \(f(x.rise, 2))"
                              + " · second bow \(f(x.secondBow, 2))", Colour.text))
                let terms = (0..<CheckmarkFeatures.count).map { "\(CheckmarkFeatures.names[$0]) \(f(m.term($0, of: x), 1))" }
                lines.append(("  score \(f(score, 2)) (≥ \(f(kr.minScore, 2))) = \(f(m.bias, 1)) + " + terms.joined(separator: " + "),
                              Colour.text))
            } else {
                lines.append(("", Colour.text)); lines.append(("", Colour.text))
            }
        } else {
            lines.append(("checkmark: not measured — \(unfinished(stroke.checkmarkState))", Colour.rejected))
            for _ in 0..<4 { lines.append(("", Colour.text)) }
        }
        return lines
    }

    static func shortName(_ v: TickleLegVerdict) -> String {
        switch v {
        case .counted: "counted"
        case .short: "short"
        case .steep: "steep"
        case .slow: "slow"
        case .uneven: "uneven"
        case .drifts: "drifting"
        }
    }

    /// Why a recognizer has no analysis: it stopped before the finger lifted.
    static func unfinished(_ state: RecognizerState) -> String {
        switch state {
        case .failed: "failed before the lift (a second finger)"
        case .cancelled: "cancelled (palm, resync or lost contact)"
        case .possible: "the finger is still down at the end of the recording"
        default: "no analysis"
        }
    }

    static func legend(_ stroke: StrokeTrace, trace: RecordingTrace, x: Double, y: Double, into svg: inout SVGCanvas) {
        svg.open("g", [("class", "legend"), ("font-size", "11")])
        for (i, line) in legend(stroke, trace: trace).enumerated() where !line.text.isEmpty {
            // SVG collapses leading spaces: an indented line is moved right instead.
            let indented = line.text.hasPrefix("  ")
            svg.element("text", [("x", SVGCanvas.number(x + (indented ? 12 : 0))), ("y", SVGCanvas.number(y + Double(i) * lineHeight)),
                                 ("fill", line.colour)] + (i == 0 ? [("font-weight", "bold")] : []),
                        text: indented ? String(line.text.dropFirst(2)) : line.text)
        }
        svg.close("g")
    }
}
