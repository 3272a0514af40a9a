import CanopyAccessibility
import CanopyHTML
import CanopyStyle

/// People who use voice control activate a control by saying what they see on it ("click Next
/// page"). When `aria-label` or `aria-labelledby` replaces a control's text as its accessible name,
/// a name without those words leaves the spoken command with nothing to match (WCAG 2.5.3 Label
/// in Name).
///
/// The comparison is axe-core's: case, spacing, emoji, symbols and punctuation set aside, and
/// single characters ("X" for close) left to a person. Where axe-core and the W3C ACT rule
/// disagree (a hyphen inside a word, part of a longer word), Canopy asks for review; see
/// `LabelInName`. Text drawn in an icon font may be a ligature drawn as an icon ("search" as a
/// magnifier), which only rendering shows, so a mismatch there is left for review too.
public struct LabelContentNameMismatchRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "label-content-name-mismatch",
        impact: .serious,
        tags: [
            "cat.semantics", "wcag21a", "wcag253", "EN-301-549", "EN-9.2.5.3", "RGAAv4", "RGAA-6.1.5", "experimental",
        ],
        description: "Checks that controls named by aria-label or aria-labelledby keep their visible text in that name",
        help: "A control's visible text must be part of its accessible name",
        howToFix: "Write the aria-label or aria-labelledby text so that it contains the words shown on the control, ideally at its start, or remove it and let the visible text be the name.",
        enabledByDefault: false,
        rationale: "Voice control users say the words they see on a control; if the accessible name lacks them, the command fails. Opt-in, as in axe-core, where the rule is experimental."
    )

    /// axe-core selects every element and keeps those named by `aria-label` or `aria-labelledby`.
    public let selector = try! SelectorList("[aria-label], [aria-labelledby]")

    /// A widget that can be named from its content, named instead by `aria-label` or
    /// `aria-labelledby`, with text that shows on screen.
    public func applies(to element: Element, on page: PageContext) -> Bool {
        let model = page.accessibility
        guard let roleName = model.role(of: element, options: .axeDefault), let role = ARIARoles.role(named: roleName),
            role.kind == .widget, role.nameFromContent,
            model.ariaLabel(of: element) != nil || model.ariaLabelledByText(of: element) != nil
        else { return false }
        return ([element] + element.descendants).contains { holder in
            !NamingChecks.isBlank(holder.textOfTextChildren) && Self.isOnScreen(holder, on: page)
        }
    }

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        let model = page.accessibility
        let name = model.accessibleName(of: element).lowercased()
        var label = model.subtreeText(of: element).lowercased()
        let shownButHidden = label.isEmpty
        if shownButHidden {
            // Everything shown is hidden from assistive technology, where axe-core stops with a
            // pass. A symbol hidden so ("×", "☰") is decoration; words shown but hidden are
            // still what a voice user reads out, so a mismatch is left for review: a violation
            // here would be one axe-core never reports.
            label = model.visibleText(of: element).lowercased()
            guard LabelInName.isHumanInterpretable(label) else { return .pass }
        }
        guard LabelInName.isHumanInterpretable(name) else {
            return .incomplete(
                "The accessible name is a single character, a symbol or emoji, so whether it matches the visible text needs a person."
            )
        }
        guard LabelInName.isHumanInterpretable(label) else {
            return .incomplete(
                "The visible text is a single character, a symbol or emoji (an \"X\" for close); whether the accessible name says what it stands for needs a person."
            )
        }
        switch LabelInName.match(label: label, name: name) {
        case .wholeWords:
            return .pass
        case .ignoringPunctuation:
            return .incomplete(
                "The visible text is in the accessible name only once punctuation is ignored or as part of a longer word (\"nonstandard\" in \"non-standard\"); check that saying the visible words reaches the control."
            )
        case .missing:
            if let family = Self.iconFontFamily(in: element, on: page) {
                return .incomplete(
                    "The text is drawn in the font \(family), which may show words as icons (ligatures); if it shows an icon, the text need not be in the name."
                )
            }
            if shownButHidden {
                return .incomplete(
                    "The text shown is hidden from assistive technology and is not part of the accessible name; people who speak the words they see to operate the control may not reach it."
                )
            }
            if let doubt = StyleCertainty.doubt(about: PropertySet([.fontFamily]), on: page) {
                return .incomplete(doubt.message + " The text may be drawn as an icon by a font set there.")
            }
            return .violation("The text shown on the control is not part of its accessible name.")
        }
    }

    /// On screen as far as static styles tell: rendered, not transparent, clipped away or placed
    /// outside the page.
    private static func isOnScreen(_ element: Element, on page: PageContext) -> Bool {
        switch ScreenPlacement.of(element, on: page) {
        case .unrendered, .invisible, .offScreen: false
        case .displaced, .inFlow: true
        }
    }

    /// The first font family of text inside the control that is named like an icon font
    /// ("Material Icons", "Material Symbols Outlined"): such fonts turn words into pictures.
    private static func iconFontFamily(in element: Element, on page: PageContext) -> String? {
        for holder in [element] + element.descendants
        where !NamingChecks.isBlank(holder.textOfTextChildren) && !page.accessibility.isNotRendered(holder) {
            let family = PlacedText.firstFontFamily(page.styles.value(.fontFamily, of: holder))
            if family.contains("icon") || family.contains("symbol") { return family }
        }
        return nil
    }

    public let examples = RuleExamples(
        passing: [
            #"<a href="/rules" aria-label="ACT rules">ACT rules</a>"#,
            #"<button aria-label="Next page in the list">Next  page</button>"#,
            #"<div role="link" tabindex="0" aria-label="Read more about pricing">Read more…</div>"#,
            #"<span id="l">until the very END</span><div role="button" tabindex="0" aria-labelledby="l">Until the very end</div>"#,
            #"<button aria-label="Save the file">Save 💾</button>"#,
            #"<button aria-label="Close the dialog"><span aria-hidden="true">Close</span></button>"#,
            #"<button aria-label="Menu"><span aria-hidden="true">☰</span></button>"#,
        ],
        violating: [
            RuleExample(#"<a href="/rules" aria-label="WCAG">ACT rules</a>"#, at: "a"),
            RuleExample(#"<button aria-label="the full">The full label</button>"#, at: "button"),
            RuleExample(#"<a href="tel:1234567890" aria-label="1 2 3 4 5 6 7 8 9 0">123.456.7890</a>"#, at: "a"),
            RuleExample(#"<span id="l">123</span><div role="button" tabindex="0" aria-labelledby="l">Some content</div>"#, at: "div"),
        ],
        incomplete: [
            RuleExample(#"<button aria-label="Close"><span aria-hidden="true">Next</span></button>"#, at: "button"),
            RuleExample(#"<button aria-label="Close">X</button>"#, at: "button"),
            RuleExample(#"<button aria-label="🍔">Burger</button>"#, at: "button"),
            RuleExample(#"<a href="/" aria-label="non-standard">nonstandard</a>"#, at: "a"),
            RuleExample(#"<a href="/" aria-label="next pages">next page</a>"#, at: "a"),
            RuleExample(#"<style>button { font-family: "Material Icons" }</style><button aria-label="Find">search</button>"#, at: "button"),
            RuleExample(#"<link rel="stylesheet" href="/icons.css"><button aria-label="Find">search</button>"#, at: "button"),
        ],
        inapplicable: [
            #"<nav aria-label="Main">Site navigation</nav>"#,
            #"<input type="email" aria-label="E-mail" value="Contact">"#,
            #"<div role="tooltip" aria-label="OK">Next</div>"#,
            #"<a href="/" aria-label="Home"><img src="logo.png" alt="Logo"></a>"#,
            #"<a aria-label="OK">Next</a>"#,
            #"<button aria-label="Save"><span style="display: none">Store</span></button>"#,
            #"<button aria-label="Go"><span style="position: absolute; left: -9999px">Next</span></button>"#,
            #"<button aria-label="Go" hidden>Next</button>"#,
        ]
    )
}
