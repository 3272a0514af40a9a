import CanopyAccessibility
import CanopyHTML

/// A page that declares its language twice (`lang` and `xml:lang` on `<html>`) must declare the
/// same language both times: browsers, screen readers and XML tools read different attributes,
/// and a mismatch makes some of them pronounce the page with the wrong voice.
public struct HTMLXMLLangMismatchRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "html-xml-lang-mismatch",
        impact: .moderate,
        tags: [
            "cat.language", "wcag2a", "wcag311", "EN-301-549", "EN-9.3.1.1", "ACT", "RGAAv4", "RGAA-8.3.1",
        ],
        description: "Checks that the lang and xml:lang attributes of <html> name the same base language",
        help: "The <html> element's lang and xml:lang must name the same language",
        howToFix: "Make lang and xml:lang agree on the language (e.g. lang=\"fr\" xml:lang=\"fr-CA\"), or drop xml:lang, which HTML pages do not need.",
        enabledByDefault: false,
        rationale: "lang and xml:lang naming different languages leave the voice to chance; opt-in because XHTML pages are rare."
    )

    public let selector = try! SelectorList(#"html[lang][xml\:lang]:not(html *)"#)

    /// Only pages whose two declarations both name a known language: an unknown one is
    /// html-lang-valid's business.
    public func applies(to element: Element, on page: PageContext) -> Bool {
        [element.attribute("lang"), element.attribute("xml:lang")].allSatisfy { value in
            LanguageTag.hasKnownPrimarySubtag(value ?? "")
        }
    }

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        let lang = LanguageTag.primarySubtag(of: element.attribute("lang") ?? "")
        let xmlLang = LanguageTag.primarySubtag(of: element.attribute("xml:lang") ?? "")
        if lang == xmlLang { return .pass }
        return .violation("lang names \"\(lang)\" but xml:lang names \"\(xmlLang)\".")
    }

    public let examples = RuleExamples(
        passing: [
            #"<!DOCTYPE html><html lang="en" xml:lang="en"><head><title>T</title></head><body><p>Hello</p></body></html>"#,
            // Regions may differ: the base language is what screen readers switch voices on.
            #"<!DOCTYPE html><html lang="en-GB" xml:lang="EN-us"><head><title>T</title></head><body></body></html>"#,
            #"<!DOCTYPE html><html lang=" fr " xml:lang="fr-CA"><head><title>T</title></head><body></body></html>"#,
        ],
        violating: [
            RuleExample(#"<!DOCTYPE html><html lang="en" xml:lang="fr"><head><title>T</title></head><body><p>Hello</p></body></html>"#, at: "html"),
            RuleExample(#"<!DOCTYPE html><html lang="de-AT" xml:lang="nl-BE"><head><title>T</title></head><body></body></html>"#, at: "html"),
        ],
        inapplicable: [
            #"<!DOCTYPE html><html lang="en"><head><title>T</title></head><body></body></html>"#,
            #"<!DOCTYPE html><html xml:lang="en"><head><title>T</title></head><body></body></html>"#,
            #"<!DOCTYPE html><html lang="english" xml:lang="fr"><head><title>T</title></head><body></body></html>"#,
            #"<!DOCTYPE html><html lang="en" xml:lang=""><head><title>T</title></head><body></body></html>"#,
            #"<!DOCTYPE html><html lang="en"><head><title>T</title></head><body><div lang="en" xml:lang="fr">Inner</div></body></html>"#,
        ]
    )
}
