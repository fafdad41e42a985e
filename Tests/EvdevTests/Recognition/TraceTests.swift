import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import Evdev
import GestureKit
@testable import Trace

/// The SVG of `gestured trace`, read back as XML: every element with its attributes and text.
final class SVGElements: NSObject, XMLParserDelegate {
    struct Element { var name: String; var attributes: [String: String]; var text = "" }
    var elements: [Element] = []
    private var open: [Int] = []

    static func parse(_ svg: String) throws -> [Element] {
        let collector = SVGElements()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = collector
        #expect(parser.parse(), "the SVG is not well-formed XML: \(String(describing: parser.parserError))")
        return collector.elements
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        open.append(elements.count)
        elements.append(Element(name: name, attributes: attributes))
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        _ = open.popLast()
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if let i = open.last { elements[i].text += string }
    }
}

@Suite struct TraceTests {
    func trace(_ relative: String) throws -> (RecordingTrace, [SVGElements.Element]) {
        let trace = StrokeTracer.trace(try Recording.load(path: Fixture.root + "/" + relative))
        return (trace, try SVGElements.parse(StrokeTraceRenderer.render(trace)))
    }

    func number(_ s: String?) -> Double { s.flatMap(Double.init) ?? .nan }

    @Test func recordedCircleDrawsAGreenFitWithItsNumbers() throws {
        let (t, svg) = try trace("recordings/tablets/Wacom_ISDv4_E6_Finger.single-center-circle.events")
        let stroke = try #require(t.strokes.first { $0.circle?.isRecognized == true })
        let a = try #require(stroke.circle)
        let fit = try #require(a.fit)
        // The recording is a hand-drawn circle in the middle of a 345×195 mm tablet.
        #expect(fit.radius > 10 && fit.radius < 80)
        #expect(abs(fit.center.x - 345.0 / 2) < 60 && abs(fit.center.y - 195.0 / 2) < 60)

        let circles = svg.filter { $0.name == "circle" && $0.attributes["class"]?.hasPrefix("fit-circle") == true }
        #expect(circles.count == 1)
        let green = try #require(circles.first)
        #expect(green.attributes["class"] == "fit-circle recognized")
        #expect(green.attributes["stroke"] == "#2a9d3a")
        // Drawn in millimetres: the element is the fitted circle itself.
        #expect(abs(number(green.attributes["cx"]) - fit.center.x) < 0.001)
        #expect(abs(number(green.attributes["cy"]) - fit.center.y) < 0.001)
        #expect(abs(number(green.attributes["r"]) - fit.radius) < 0.001)
        // The inner square: side r·√2·tolerance around the centre.
        let square = try #require(svg.first { $0.attributes["class"] == "inner-square" })
        #expect(abs(number(square.attributes["width"]) - fit.radius * 2.0.squareRoot() * 0.2) < 0.002)
        #expect(svg.contains { $0.attributes["class"] == "path-box" } && svg.contains { $0.attributes["class"] == "fit-box" })

        // The legend gives the analysis' numbers (formatted here with printf, not the renderer's formatter).
        let legend = svg.filter { $0.name == "text" }.map(\.text).joined(separator: "\n")
        #expect(legend.contains("circle: recognized"))
        #expect(legend.contains(String(format: "fit error %.3f (≤ 0.20)", a.fitError)), "\(legend)")
        #expect(legend.contains(String(format: "radius %.1f mm", fit.radius)))
        #expect(legend.contains(String(format: "turns %.2f cw", a.turns)))
        #expect(legend.contains(String(format: "coverage %.3f (> 0.80)", a.boxCoverage)))
        #expect(legend.contains(String(format: "evenness %.3f rad", a.turningDeviation)))
        #expect(legend.contains("events: circle"))
    }

    @Test func swipeDrawsARedFit() throws {
        let (t, svg) = try trace("recordings/tablets/Wacom_ISDv4_E6_Finger.single-top-swipe.events")
        #expect(!t.strokes.isEmpty)
        #expect(t.strokes.allSatisfy { $0.circle?.isRecognized != true })
        let fits = svg.filter { $0.attributes["class"]?.hasPrefix("fit-circle") == true }
        #expect(!fits.isEmpty)
        #expect(fits.allSatisfy { $0.attributes["class"] == "fit-circle rejected" && $0.attributes["stroke"] == "#d62828" })
        let legend = svg.filter { $0.name == "text" }.map(\.text)
        #expect(legend.contains { $0.hasPrefix("circle: no — ") })
    }

    @Test func oneGroupPerStrokeWithCheckmarkTurnsAndTickleTurns() throws {
        let (t, svg) = try trace("unistroke/check.evemu")
        #expect(t.strokes.count == 30)
        #expect(svg.filter { $0.attributes["class"] == "stroke" }.count == 30)
        #expect(svg.filter { $0.attributes["class"] == "checkmark-turn" }.count == 30)
        #expect(svg.filter { $0.name == "text" && $0.text == "checkmark: recognized" }.count == 30)
        // Each number the check-versus-v score used, and what it added, for every check.
        let scores = svg.filter { $0.name == "text" && $0.text.hasPrefix("score ") }.map(\.text)
        #expect(scores.count == 30)
        #expect(scores.allSatisfy { line in CheckmarkFeatures.names.allSatisfy { line.contains($0) } })
        #expect(svg.filter { $0.name == "text" && $0.text.hasPrefix("ln ratio ") && $0.text.contains("turn at") }.count == 30)
        // A v is measured the same way and rejected by its score.
        let (vs, _) = try trace("unistroke/v.evemu")
        #expect(vs.strokes.allSatisfy { $0.checkmark?.verdict == .score || $0.checkmark?.score == nil })
        #expect(vs.strokes.filter { $0.checkmark?.verdict == .score }.count >= 15)
        // Every tickle turn of every stroke is drawn, counted or not.
        let (arrows, arrowSVG) = try trace("unistroke/arrow.evemu")
        let turns = arrows.strokes.map(\.tickle.turns.count).reduce(0, +)
        #expect(turns > 30)
        let marks = arrowSVG.filter { $0.attributes["class"] == "tickle-reversal" || $0.attributes["class"] == "tickle-rejected" }
        #expect(marks.count == turns)
    }

    @Test func secondFingerLeavesNoAnalysis() throws {
        let (t, svg) = try trace("recordings/tablets/Wacom_ISDv4_E6_Finger.2fg-tap.events")
        let stroke = try #require(t.strokes.first { $0.maxFingers == 2 })
        #expect(stroke.circle == nil && stroke.circleState == .failed)
        #expect(stroke.paths.count == 2)
        #expect(svg.contains { $0.text.hasPrefix("circle: not measured — failed before the lift") })
    }

    @Test func numbersAndEscaping() {
        #expect(SVGCanvas.number(0.1049) == "0.10")
        #expect(SVGCanvas.number(12.345, digits: 1) == "12.3")
        #expect(SVGCanvas.number(-0.25, digits: 1) == "-0.3")
        #expect(SVGCanvas.number(-0.0001) == "0.00")
        #expect(SVGCanvas.number(2.5, digits: 0) == "3")
        #expect(SVGCanvas.number(7, digits: 3) == "7.000")
        #expect(SVGCanvas.number(.infinity) == "∞")
        #expect(SVGCanvas.escape("a<b & \"c\">") == "a&lt;b &amp; &quot;c&quot;&gt;")
    }
}
