import CanopyAccessibility
import CanopyHTML

/// A `lang` (or `xml:lang`) inside the page must name a real language, so that screen readers
/// switch to the right voice for that passage.
public struct ValidLangRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "valid-lang",
        impact: .serious,
        tags: [
            "cat.language", "wcag2aa", "wcag312", "TTv5", "TT11.b", "EN-301-549", "EN-9.3.1.2", "ACT", "RGAAv4",
            "RGAA-8.8.1",
        ],
        description: "Checks that lang and xml:lang attributes inside the page name valid languages",
        help: "lang attributes must name a valid language",
        howToFix: "Use a BCP 47 language tag whose first part is a real ISO 639 language code, e.g. lang=\"fr\" or \"es-419\", or remove the attribute.",
        enabledByDefault: true,
        rationale: "An invalid language code on a passage makes the speech engine read it in the wrong voice."
    )

    public let selector = try! SelectorList(#"[lang]:not(html), [xml\:lang]:not(html)"#)

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        let invalid = LangAttributes.invalidDeclarations(of: element)
        guard !invalid.isEmpty else { return .pass }
        // A wrong language on an element with no text of its own language misleads nobody.
        guard LangAttributes.hasTextInItsLanguage(element, model: page.accessibility) else { return .pass }
        return .violation("The element's language is not a known language: \(invalid.joined(separator: ", ")).")
    }

    public let examples = RuleExamples(
        passing: [
            #"<p lang="fr">Bonjour</p>"#,
            #"<p lang="en-US">Hello</p>"#,
            #"<p xml:lang="de" lang="de">Hallo</p>"#,
            #"<p lang="oma">Omaha</p>"#,
            #"<p lang="">Empty values leave the language unchanged</p>"#,
            #"<p lang="invalid"><!-- no text --></p>"#,
            #"<p lang="invalid"><img src="line.png" alt=""></p>"#,
            #"<p lang="invalid"><span lang="en">The text has its own valid language</span></p>"#,
            #"<p lang="invalid"><span hidden>Hidden for everyone</span></p>"#,
        ],
        violating: [
            RuleExample(#"<p lang="gibberish-US">Hello</p>"#, at: "p"),
            RuleExample(#"<p xml:lang="gibberish">Hello</p>"#, at: "p"),
            RuleExample(#"<p xml:lang="en-US" lang="english">Hello</p>"#, at: "p"),
            RuleExample(#"<p lang=" ">Hello</p>"#, at: "p"),
            RuleExample(#"<article lang="english"><p aria-hidden="true">Hidden from screen readers but still read on screen</p></article>"#, at: "article"),
            RuleExample(#"<p lang="xx"><img src="tea.png" alt="Green tea"></p>"#, at: "p"),
        ],
        inapplicable: [
            #"<p>No language declared</p>"#,
            #"<div hidden><p lang="xx">Hidden</p></div>"#,
        ]
    )
}
