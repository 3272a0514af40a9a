import CanopyAccessibility
import CanopyHTML
import Foundation

/// Embedded objects (plug-ins, documents, media) are opaque to assistive technology unless the
/// author names them; fallback content inside a loaded `<object>` is never shown or read.
public struct ObjectAltRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "object-alt",
        impact: .serious,
        tags: [
            "cat.text-alternatives", "wcag2a", "wcag111", "section508", "section508.22.a", "EN-301-549", "EN-9.1.1.1",
            "RGAAv4", "RGAA-1.1.6",
        ],
        description: "Checks that <object> elements have a text alternative",
        help: "<object> elements need a text alternative",
        howToFix: "Give the <object> an aria-label, aria-labelledby or title that says what it shows, or role=\"none\" if it is decorative.",
        enabledByDefault: false,
        rationale: "An <object> without a text alternative is silent to screen readers; opt-in as in axe-core."
    )

    public let selector = try! SelectorList("object[data]")

    /// Objects that load something, and whose role needs a name (or that take focus). Without a
    /// browser, a non-empty `data` is taken to load, as the author intends; an object with an
    /// empty `data` loads nothing and shows its fallback content, which is then what users get,
    /// so it is left out unless it has no fallback content at all.
    public func applies(to element: Element, on page: PageContext) -> Bool {
        guard NamingChecks(page).keepsNameRequirement(element) else { return false }
        let data = element.attribute("data")?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        return !data.isEmpty || !hasFallbackContent(element)
    }

    private func hasFallbackContent(_ element: Element) -> Bool {
        element.childNodes.contains { node in
            switch node.kind {
            case .text: return !node.text.allSatisfy(\.isWhitespace)
            case .element: return true
            default: return false
            }
        }
    }

    /// aria-label, aria-labelledby, title, or a presentational role that really applies.
    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        let checks = NamingChecks(page)
        if checks.hasARIALabelOrTitle(element) || checks.isPresentational(element) { return .pass }
        // With content to fall back on, what shows depends on whether `data` loads: if it does
        // not, the browser shows the fallback, which may be the alternative itself. Data in the
        // attribute itself (`data:`) always loads.
        let inlineData = (element.attribute("data") ?? "").trimmingCharacters(in: .whitespaces).lowercased().hasPrefix("data:")
        if !inlineData, Self.hasFallback(element, on: page) {
            return .incomplete(
                "The object has no name of its own; if its data does not load, its fallback content is shown instead, and only that can tell whether people get an alternative."
            )
        }
        return .violation(
            "The object has no aria-label, aria-labelledby that gives text, or title, and is not presentational; its fallback content is not read when it loads."
        )
    }

    /// Fallback content that shows something: text, or an image or other embedded content.
    private static func hasFallback(_ object: Element, on page: PageContext) -> Bool {
        if page.accessibility.hasVisibleText(object) { return true }
        let embedded: Set<String> = ["img", "svg", "picture", "video", "audio", "canvas", "object", "embed", "iframe", "input"]
        return object.descendants.contains { embedded.contains($0.localName) }
    }

    public let examples = RuleExamples(
        passing: [
            #"<object data="chart.svg" type="image/svg+xml" title="Sales by month"></object>"#,
            #"<object data="movie.mp4" aria-label="Product demo"></object>"#,
            #"<object data="flourish.svg" role="none"></object>"#,
        ],
        violating: [
            RuleExample(#"<object data="chart.svg" type="image/svg+xml"></object>"#, at: "object"),
            RuleExample(#"<object data="flourish.svg" role="presentation" tabindex="0"></object>"#, at: "object"),
        ],
        incomplete: [
            RuleExample(#"<object data="chart.svg">Sales rose in May</object>"#, at: "object"),
            RuleExample(#"<object data="/logo.png"><img src="/logo.png" alt="Acme"></object>"#, at: "object"),
        ],
        inapplicable: [
            #"<object></object>"#,
            #"<object data="">Sales rose in May</object>"#,
            #"<object data="line.svg" role="separator"></object>"#,
        ]
    )
}
