import CanopyAccessibility
import CanopyHTML

/// The page's `<html lang>` (and `xml:lang`) must name a real language, so that screen readers
/// pronounce the page with the right voice and rules.
public struct HTMLLangValidRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "html-lang-valid",
        impact: .serious,
        tags: [
            "cat.language", "wcag2a", "wcag311", "TTv5", "TT11.a", "EN-301-549", "EN-9.3.1.1", "ACT", "RGAAv4",
            "RGAA-8.4.1",
        ],
        description: "Checks that the lang and xml:lang attributes of <html> name a valid language",
        help: "The <html> element's lang attribute must be a valid language",
        howToFix: "Use a BCP 47 language tag whose first part is a real ISO 639 language code, e.g. lang=\"en\", \"en-GB\" or \"pt-BR\".",
        enabledByDefault: true,
        rationale: "An invalid language code is the same as none: the speech engine cannot pick the right voice."
    )

    /// The root `<html>` with a non-empty `lang` or `xml:lang` (an empty one is html-has-lang's business).
    public let selector = try! SelectorList(#"html[lang]:not([lang=""]):not(html *), html[xml\:lang]:not([xml\:lang=""]):not(html *)"#)

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        let invalid = LangAttributes.invalidDeclarations(of: element)
        guard !invalid.isEmpty else { return .pass }
        return .violation("The page's language is not a known language: \(invalid.joined(separator: ", ")).")
    }

    public let examples = RuleExamples(
        passing: [
            #"<!DOCTYPE html><html lang="en"><head><title>T</title></head><body><p>Hello</p></body></html>"#,
            #"<!DOCTYPE html><html lang="en-GB"><head><title>T</title></head><body></body></html>"#,
            #"<!DOCTYPE html><html lang="DE-at"><head><title>T</title></head><body></body></html>"#,
            #"<!DOCTYPE html><html lang="zh-Hant-TW"><head><title>T</title></head><body></body></html>"#,
            #"<!DOCTYPE html><html lang="fil"><head><title>T</title></head><body></body></html>"#,
            #"<!DOCTYPE html><html xml:lang="fr"><head><title>T</title></head><body></body></html>"#,
            #"<!DOCTYPE html><html lang="en" xml:lang="en-US"><head><title>T</title></head><body></body></html>"#,
            #"<!DOCTYPE html><html lang="  es  "><head><title>T</title></head><body></body></html>"#,
            #"<!DOCTYPE html><html lang="en"><head><title>T</title></head><body><p lang="xyzzy">Inner languages are valid-lang's business</p></body></html>"#,
        ],
        violating: [
            RuleExample(#"<!DOCTYPE html><html lang="english"><head><title>T</title></head><body><p>Hello</p></body></html>"#, at: "html"),
            RuleExample(#"<!DOCTYPE html><html lang="xx"><head><title>T</title></head><body></body></html>"#, at: "html"),
            RuleExample(#"<!DOCTYPE html><html lang="gibberish-US"><head><title>T</title></head><body></body></html>"#, at: "html"),
            RuleExample(#"<!DOCTYPE html><html lang=" "><head><title>T</title></head><body></body></html>"#, at: "html"),
            RuleExample(#"<!DOCTYPE html><html lang="en" xml:lang="klingon"><head><title>T</title></head><body></body></html>"#, at: "html"),
            RuleExample(#"<!DOCTYPE html><html xml:lang="e"><head><title>T</title></head><body></body></html>"#, at: "html"),
            RuleExample(#"<!DOCTYPE html><html lang="_en"><head><title>T</title></head><body></body></html>"#, at: "html"),
        ],
        inapplicable: [
            #"<!DOCTYPE html><html><head><title>T</title></head><body><p lang="en">Hello</p></body></html>"#,
            #"<!DOCTYPE html><html lang=""><head><title>T</title></head><body></body></html>"#,
        ]
    )
}
