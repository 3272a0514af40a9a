import CanopyAccessibility
import CanopyHTML

/// A server-side image map (`<img ismap>` in a link) sends click coordinates to the server: its
/// regions cannot be reached by keyboard, and have no text for screen readers
/// (WCAG 2.1.1 Keyboard). Client-side maps (`<map>` with `<area alt>`) do not have these problems.
public struct ServerSideImageMapRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "server-side-image-map",
        impact: .minor,
        tags: [
            "cat.text-alternatives", "wcag2a", "wcag211", "section508", "section508.22.f", "TTv5", "TT4.a",
            "EN-301-549", "EN-9.2.1.1", "RGAAv4", "RGAA-1.1.4",
        ],
        description: "Reports server-side image maps (<img ismap>) for review",
        help: "Server-side image maps must not be used",
        howToFix: "Replace the server-side map with a client-side one (<img usemap> with a <map> of <area> elements that have alt text), or with ordinary links.",
        enabledByDefault: false,
        rationale: "A server-side image map cannot be used with a keyboard; opt-in because pages rarely use them."
    )

    public let selector = try! SelectorList("img[ismap]")

    /// As in axe-core, always a question for a person: whether the same links are offered some
    /// other way (e.g. a list of text links next to the map) cannot be told from the markup.
    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        .incomplete("This image is a server-side image map: its regions work only with a pointer and have no text. Check that the same destinations are offered as links, or use a client-side map.")
    }

    public let examples = RuleExamples(
        passing: [],
        violating: [],
        incomplete: [
            RuleExample(#"<a href="/map-click"><img ismap src="floor-plan.png" alt="Floor plan"></a>"#, at: #"[alt="Floor plan"]"#),
            RuleExample(#"<p><img ismap src="floor-plan.png" alt="Floor plan"></p>"#, at: #"[alt="Floor plan"]"#),
        ],
        inapplicable: [
            ##"<img usemap="#floors" src="floor-plan.png" alt="Floor plan"><map name="floors"><area href="/first" alt="First floor" coords="0,0,10,10"></map>"##,
            #"<a href="/map-click" hidden><img ismap src="floor-plan.png" alt="Floor plan"></a>"#,
        ]
    )
}
