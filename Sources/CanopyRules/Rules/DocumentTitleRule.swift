import CanopyHTML
import Foundation

/// The page needs a non-empty `<title>`: it is what a screen reader announces first and what
/// users see in tabs, history and bookmarks.
public struct DocumentTitleRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "document-title",
        impact: .serious,
        tags: [
            "cat.text-alternatives", "wcag2a", "wcag242", "TTv5", "TT12.a", "EN-301-549", "EN-9.2.4.2", "ACT",
            "RGAAv4", "RGAA-8.5.1",
        ],
        description: "Checks that the page has a <title> element with text",
        help: "Pages need a non-empty <title>",
        howToFix: "Add a <title> in <head> that says what the page is, e.g. <title>Order history – Tea Garden</title>.",
        enabledByDefault: true,
        rationale: "The title is the first thing a screen reader says of a page and what tabs and history show."
    )

    public let selector = try! SelectorList("html:root")

    /// A frame's own document is not the page (axe's `is-initiator-matches`).
    public var topDocumentOnly: Bool { true }

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        // document.title: the first <title> in the document, whitespace-trimmed.
        guard let title = page.document.title else { return .violation("The page has no <title> element.") }
        if title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            return .violation("The page's <title> is empty.")
        }
        return .pass
    }

    public let examples = RuleExamples(
        passing: [
            #"<!DOCTYPE html><html lang="en"><head><title>Order history</title></head><body></body></html>"#,
            #"<html><head></head><body><title>Late title</title></body></html>"#,
        ],
        violating: [
            RuleExample(#"<!DOCTYPE html><html lang="en"><head></head><body><p>No title</p></body></html>"#, at: "html"),
            RuleExample(#"<!DOCTYPE html><html><head><title>   </title></head><body></body></html>"#, at: "html"),
            RuleExample(#"<!DOCTYPE html><html><head><title></title></head><body></body></html>"#, at: "html"),
            RuleExample(#"<!DOCTYPE html><html><head><title>&nbsp;</title></head><body></body></html>"#, at: "html"),
            // An SVG <title> names the drawing, not the page.
            RuleExample(#"<!DOCTYPE html><html><head></head><body><svg><title>Sales chart</title></svg></body></html>"#, at: "html"),
        ]
    )
}
