import CanopyAccessibility
import CanopyHTML

/// Screen reader users move through a page by its landmarks; content outside every landmark is
/// easy to miss when navigating that way.
///
/// Every element of the body gets a result: it fails when it is the outermost element of a run
/// of content that no landmark contains (see `RegionScan`), and passes otherwise. Live regions,
/// dialogs, buttons, SVG drawings, frames and skip links need no landmark around them.
public struct RegionRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "region",
        impact: .moderate,
        tags: ["cat.keyboard", "best-practice", "RGAAv4", "RGAA-9.2.1"],
        description: "Checks that all content of the page is inside a landmark",
        help: "Page content should be inside landmarks",
        howToFix: "Put the content in the landmark it belongs to: <header>, <nav>, <main>, <aside> or <footer> (or a role such as role=\"region\" with a name).",
        enabledByDefault: true,
        rationale: "Content outside every landmark is skipped by users who navigate by landmarks."
    )

    /// axe's `body *`, read as every element inside a body (see `applies`): matching a descendant
    /// combinator against every element of the page costs more than the rest of the rule.
    public let selector = try! SelectorList("*")

    public func applies(to element: Element, on page: PageContext) -> Bool {
        facts(on: page).insideBody[element.position]
    }

    /// The walk covers the whole body, so it runs once per page and each element reads its result.
    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        guard facts(on: page).regionless[element.position] else { return .pass }
        // A frame's content is in whatever landmark its frame element sits in (axe's region-after).
        if let host = page.host, Self.sitsInLandmark(host) { return .pass }
        return .violation("This content is not inside any landmark, so people who navigate by landmarks may miss it.")
    }

    private static func sitsInLandmark(_ host: FrameHost) -> Bool {
        let model = host.page.accessibility
        let inLandmark = host.element.ancestors.contains { ancestor in
            model.role(of: ancestor, options: .axeDefault).map(Landmarks.roleNames.contains) ?? false
        }
        return inLandmark || (host.page.host.map(sitsInLandmark) ?? false)
    }

    /// By element position: which elements `body *` matches, and which ones the scan reports.
    private struct PageFacts {
        var insideBody: [Bool]
        var regionless: [Bool]
    }

    private func facts(on page: PageContext) -> PageFacts {
        page.memo("region.facts") {
            let document = page.document
            var insideBody = [Bool](repeating: false, count: document.elementCount)
            // Parents come first in document order, so each element reads its parent's answer.
            // By position, as an `Element` per element and parent retained the document each time.
            for position in 0..<document.elementCount {
                guard let parent = document.parentPosition(ofPosition: position) else { continue }
                insideBody[position] = insideBody[parent] || document.localName(atPosition: parent) == "body"
            }
            var regionless = [Bool](repeating: false, count: document.elementCount)
            for position in RegionScan(page: page).regionlessPositions() { regionless[position] = true }
            return PageFacts(insideBody: insideBody, regionless: regionless)
        }
    }

    public let examples = RuleExamples(
        passing: [
            #"<header><h1>Tea Garden</h1></header><nav><a href="/menu">Menu</a></nav><main><p>Welcome</p></main><footer>©</footer>"#,
            // A skip link before the first link to another page needs no landmark.
            ##"<a href="#content">Skip to content</a><main id="content"><p>Welcome</p></main>"##,
            // Live regions, dialogs and empty or hidden elements are fine outside landmarks.
            #"<div role="status">Saved</div><div aria-live="polite">3 new</div><dialog open>Confirm?</dialog><div></div><p hidden>Old</p><main>Welcome</main>"#,
            #"<div class="wrapper"><div class="inner"><main><p>Welcome</p></main></div></div><script>var x = 1;</script>"#,
            #"<iframe src="ad.html" title="Ad"></iframe><main>Welcome</main>"#,
        ],
        violating: [
            // Each element here is outside every landmark and is the outermost one of its run.
            RuleExample(#"<p>Loose paragraph</p>"#, at: "p"),
            // An unnamed section is no landmark.
            RuleExample(#"<section>Specials</section>"#, at: "section"),
            // A same-page link to a missing target is no skip link.
            RuleExample(##"<a href="#nowhere">Skip</a>"##, at: ##"[href="#nowhere"]"##),
            RuleExample(#"<input type="search" aria-label="Search teas">"#, at: #"[aria-label="Search teas"]"#),
        ]
    )
}
