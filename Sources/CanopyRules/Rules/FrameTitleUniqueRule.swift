import CanopyAccessibility
import CanopyHTML

/// Frames that share a title cannot be told apart by screen reader users, who pick a frame from
/// a list of titles before entering it.
public struct FrameTitleUniqueRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "frame-title-unique",
        impact: .serious,
        tags: [
            "cat.text-alternatives", "wcag2a", "wcag412", "TTv5", "TT12.d", "EN-301-549", "EN-9.4.1.2", "RGAAv4",
            "RGAA-2.2.1",
        ],
        description: "Checks that no two <iframe> or <frame> elements on the page share a title",
        help: "Each frame needs a title of its own",
        howToFix: "Give every frame a title that says what this frame holds, different from the other frames' titles (e.g. \"Store map\" and \"Store opening hours\").",
        // Two frames may show the same content on purpose; axe-core leaves that to a person.
        reviewOnFail: true,
        enabledByDefault: false,
        rationale: "Frames sharing one name cannot be told apart; opt-in because it is a best practice in axe-core."
    )

    public let selector = Self.titledFrames
    private static let titledFrames = try! SelectorList("frame[title], iframe[title]")

    /// Frames whose title has text; frames without one are frame-title's business.
    public func applies(to element: Element, on page: PageContext) -> Bool {
        !Self.normalizedTitle(of: element).isEmpty
    }

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        let title = Self.normalizedTitle(of: element)
        let count = Self.titleCounts(on: page)[title, default: 0]
        if count <= 1 { return .pass }
        return .violation("\(count) frames on the page have the title \"\(title)\".")
    }

    /// How many reachable, titled frames carry each title, counted once per page.
    private static func titleCounts(on page: PageContext) -> [String: Int] {
        page.memo("optInB.frameTitleCounts") {
            var counts: [String: Int] = [:]
            for frame in Landmarks.reachable(titledFrames, on: page) {
                let title = normalizedTitle(of: frame)
                if !title.isEmpty { counts[title, default: 0] += 1 }
            }
            return counts
        }
    }

    /// The title as people hear it: whitespace (non-breaking spaces too) collapsed, compared without case.
    private static func normalizedTitle(of frame: Element) -> String {
        (frame.attribute("title") ?? "").split(whereSeparator: \.isWhitespace).joined(separator: " ").lowercased()
    }

    public let examples = RuleExamples(
        passing: [
            #"<iframe src="map.html" title="Store map"></iframe><iframe src="hours.html" title="Opening hours"></iframe>"#,
            // A hidden twin is never offered to screen reader users.
            #"<iframe src="map.html" title="Store map"></iframe><iframe src="old.html" title="Store map" hidden></iframe>"#,
        ],
        violating: [],
        incomplete: [
            RuleExample(#"<iframe src="map.html" title="Store map"></iframe><iframe src="map2.html" title="store  MAP "></iframe>"#, at: #"[src="map.html"]"#, #"[src="map2.html"]"#)
        ],
        inapplicable: [
            #"<iframe src="map.html"></iframe><iframe src="map.html" title="  "></iframe>"#
        ]
    )
}
