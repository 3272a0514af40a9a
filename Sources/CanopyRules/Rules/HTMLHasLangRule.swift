import CanopyHTML
import Foundation

/// The page must declare its language on `<html>`, so screen readers pronounce it correctly.
public struct HTMLHasLangRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "html-has-lang",
        impact: .serious,
        tags: [
            "cat.language", "wcag2a", "wcag311", "TTv5", "TT11.a", "EN-301-549", "EN-9.3.1.1", "ACT", "RGAAv4",
            "RGAA-8.3.1",
        ],
        description: "Checks that the <html> element declares the page's language with a lang attribute",
        help: "The <html> element needs a lang attribute",
        howToFix: "Add the page's main language to the root element, e.g. <html lang=\"en\">.",
        enabledByDefault: true,
        rationale: "Without a language, screen readers pronounce the page with the user's default voice, often wrongly."
    )

    /// Only the document's root element, never an `<html>` nested elsewhere.
    public let selector = try! SelectorList("html:root")

    /// A frame's own document is not the page (axe's `is-initiator-matches`).
    public var topDocumentOnly: Bool { true }

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        if let lang = element.attribute("lang"), !lang.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            return .pass
        }
        if let xmlLang = element.attribute("xml:lang"), !xmlLang.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            // Browsers ignore xml:lang in HTML documents, so it does not count on its own.
            return .violation("Only xml:lang is set; HTML pages need the lang attribute.")
        }
        return .violation("The <html> element has no lang attribute, or it is empty.")
    }

    public let examples = RuleExamples(
        passing: [
            #"<!DOCTYPE html><html lang="en"><head><title>x</title></head><body></body></html>"#,
            #"<!DOCTYPE html><html lang="fr-CA" xml:lang="fr-CA"><body></body></html>"#,
        ],
        violating: [
            RuleExample(#"<!DOCTYPE html><html><head><title>x</title></head><body></body></html>"#, at: "html"),
            RuleExample(#"<!DOCTYPE html><html lang=""><body></body></html>"#, at: "html"),
            RuleExample(#"<!DOCTYPE html><html lang="  "><body></body></html>"#, at: "html"),
            RuleExample(#"<!DOCTYPE html><html xml:lang="en"><body></body></html>"#, at: "html"),
            // The language must be on the root element: <body lang> does not cover the page.
            RuleExample(#"<!DOCTYPE html><html><body lang="en"><p>Hello</p></body></html>"#, at: "html"),
        ]
    )
}
