/// Every recognizer gestured ships, and the arena rules that make the defaults work together
/// (the table and its reasons: docs/arbitration.md).
public enum RecognizerCatalog {
    /// In priority order: when two recognizers claim in the same frame, the earlier one wins.
    /// Rules naming absent recognizers are ignored.
    public static var all: [RecognizerSpec] {
        [
            EdgeSwipeRecognizer.spec,
            CircleRecognizer.spec,
            CheckmarkRecognizer.spec,
            TickleRecognizer.spec,
            ShapeRecognizer.spec,
            TapRecognizer.spec,
            LongPressRecognizer.spec,
            SwipeRecognizer.spec,
            PinchRecognizer.spec,
            RotateRecognizer.spec,
            PanRecognizer.spec,
        ]
    }

    public static func spec(named name: String) -> RecognizerSpec? { all.first { $0.name == name } }

    /// The single-finger shapes decide when the finger lifts (or earlier, when they fail).
    static let shapes: [GestureKind] = [.circle, .checkmark, .tickle, .shape]

    public static var defaultRules: ArenaRules {
        ArenaRules(
            // A hold that starts to move is cancelled (LongPressRecognizer), so it must not
            // have cancelled what the moving finger may still become.
            simultaneous: [[.pan, .pinch, .rotate]]
                + (shapes + [.swipe, .edgeSwipe, .pan]).map { [.longPress, $0] },
            requiresFailureOf: [
                // A tap is a touch that did not become a drag; pan fails at lift if it never began.
                .tap: [.pan],
                // Shapes and an edge swipe are more specific than a straight stroke.
                .swipe: [.edgeSwipe] + shapes,
                .pan: [.edgeSwipe],
            ],
            // Pan is what a moving touch is when it is nothing more specific; a straight drag may
            // still become a swipe or a shape at lift, so pan begins at once but gives way to them.
            yieldsTo: [.pan: [.swipe] + shapes])
    }

    /// An arena with every recognizer at its default settings (replay with no config).
    /// `routes`: GestureArena's routing rules on (off only to check that they change nothing).
    public static func defaultArena(regions: [Region] = [], routes: Bool = true) -> GestureArena {
        let context = RecognizerContext(regions: regions)  // one for all: the shapes share its stroke
        return GestureArena(
            recognizers: all.map { $0.make(context: context) },
            rules: defaultRules, regions: regions, routes: routes)
    }
}
