@testable import GestureKit

/// Shapes that are not circles nor checkmarks but share something with them.
enum Fooling {
    typealias P = Point
    static let pi = Double.pi

    static var all: [(String, [Point])] {
        [
            ("rectangle", Synthetic.roundedRect(halfW: 30, halfH: 20, rho: 0)),
            ("square", Synthetic.roundedRect(halfW: 25, halfH: 25, rho: 0)),
            ("rounded square", Synthetic.roundedRect(halfW: 25, halfH: 25, rho: 0.3)),
            ("triangle", Synthetic.polyline([P(x: 100, y: 60), P(x: 140, y: 130), P(x: 60, y: 130), P(x: 101, y: 62)])),
            ("3/4 arc", Synthetic.arc(radius: 25, turns: 0.75)),
            ("2/3 arc", Synthetic.arc(radius: 25, from: 0, turns: -0.66)),
            ("S", Synthetic.arc(center: P(x: 100, y: 85), radius: 15, from: 0, turns: -0.75)
                + Synthetic.arc(center: P(x: 100, y: 115), radius: 15, from: -pi / 2, turns: 0.75)),
            ("figure-8", Synthetic.arc(center: P(x: 100, y: 85), radius: 15, from: pi / 2, turns: 1)
                + Synthetic.arc(center: P(x: 100, y: 115), radius: 15, from: -pi / 2, turns: -1)),
            ("spiral", Synthetic.arc(radius: 30, turns: 2.5, radiusGrowth: -0.8)),
            ("question mark", Synthetic.arc(center: P(x: 100, y: 80), radius: 15, from: pi, turns: 0.75)
                + Synthetic.polyline([P(x: 100, y: 96), P(x: 100, y: 120)])),
            ("square bracket", Synthetic.polyline([P(x: 120, y: 60), P(x: 90, y: 60), P(x: 90, y: 140), P(x: 120, y: 140)])),
            ("round bracket", Synthetic.arc(radius: 40, from: -pi * 0.3, turns: -0.4)),
            ("caret", Synthetic.polyline([P(x: 70, y: 130), P(x: 100, y: 80), P(x: 130, y: 130)])),
            ("v", Synthetic.polyline([P(x: 70, y: 80), P(x: 100, y: 130), P(x: 130, y: 80)])),
            ("square root", Synthetic.polyline([P(x: 70, y: 108), P(x: 76, y: 104), P(x: 90, y: 130), P(x: 110, y: 70), P(x: 150, y: 70)])),
            ("up-right line", Synthetic.polyline([P(x: 80, y: 130), P(x: 130, y: 80)])),
            ("tap", [P(x: 100, y: 100), P(x: 100.3, y: 100.2), P(x: 100.1, y: 100.4)]),
        ]
    }
}
