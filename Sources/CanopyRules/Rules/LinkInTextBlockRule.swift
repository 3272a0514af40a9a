import CanopyAccessibility
import CanopyHTML
import CanopyStyle

/// A link inside running text must stand out from the words around it by more than its colour:
/// people who cannot tell the two colours apart need an underline, a weight, a border... or at
/// least 3:1 of contrast between the link and the text (WCAG 1.4.1 Use of Color).
public struct LinkInTextBlockRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "link-in-text-block",
        impact: .serious,
        tags: ["cat.color", "wcag2a", "wcag141", "TTv5", "TT13.a", "EN-301-549", "EN-9.1.4.1", "RGAAv4", "RGAA-10.6.1"],
        description: "Checks that links inside a block of text can be told apart from the text without seeing colour",
        help: "Links in running text need more than colour to stand out",
        howToFix: "Underline the link (or give it a border, a different weight or size), or make its colour contrast at least 3:1 with the surrounding text.",
        enabledByDefault: true,
        rationale: "A link told apart only by a hue that is close in lightness to the text is invisible to people with colour blindness, who then miss it or cannot find it."
    )

    public let selector = try! SelectorList("a[href], [role=link]")
    /// Seen on screen whatever screen readers are told (axe's excludeHidden: false); visibility
    /// on screen is part of `applies`.
    public var excludesHidden: Bool { false }

    public var stylesRead: PropertySet { ColorContrast.paintingProperties.union(Self.distinguishingProperties) }

    public func applies(to element: Element, on page: PageContext) -> Bool {
        if let role = element.attribute("role").map(PlacedText.trimmed)?.lowercased(), !role.isEmpty,
           !role.contains(where: { $0.isWhitespace }), ARIARoles.role(named: role) != nil, role != "link" {
            return false
        }
        guard ContrastFacts.of(page).isSeen(element), page.accessibility.hasVisibleText(element) else { return false }
        return RunningText.isInTextBlock(element, on: page)
    }

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome { check(element, on: page).outcome }

    public func check(_ element: Element, on page: PageContext) -> CheckResult {
        let styles = page.styles
        guard let block = element.ancestors.first(where: { styles.startsBlock($0) || styles.isInlineBlock($0) }) else {
            return CheckResult(.incomplete("No block of text around the link was found."))
        }
        // Either way of standing out is enough (axe's "any" of its two checks).
        let (colour, colours) = colourDifference(element, block, page)
        if case .pass = colour.outcome { return colour }
        let nodes = StyleNodes(link: styles.styleNodeNumber(of: element), block: styles.styleNodeNumber(of: block))
        let style = Self.styleVerdicts(on: page).verdict(nodes) { styleDifference(element, block, styles) }
        if case .pass = style { return CheckResult(.pass) }
        switch (colour.outcome, style) {
        case (.incomplete(let message), _), (.violation, .incomplete(let message)):
            return CheckResult(.incomplete(message), evidence: colour.evidence)
        case (.violation(let message), _):
            let verdict = {
                CheckResult(
                    .violation(message + " Nothing but colour sets it apart: no underline, border, weight, size, style or font of its own."),
                    evidence: colour.evidence
                )
            }
            guard let colours else { return verdict() }
            return Self.verdicts(on: page).verdict(ColourKey(colours: colours, colourOnly: true), verdict)
        case (.pass, _):
            return colour
        }
    }

    // MARK: Colour

    /// The four colours a verdict on colour depends on, and nothing else.
    private struct Colours: Hashable {
        let linkShown, textShown, linkBack, blockBack: RGBA
    }

    /// A verdict on colour is decided by the colours, and by whether colour is all that sets the
    /// link apart (then it is the violation rather than the verdict on colour alone).
    private struct ColourKey: Hashable {
        let colours: Colours
        let colourOnly: Bool
    }

    /// Verdicts by what decides them, for one page: a page of thousands of links shares a few.
    /// On the largest page of the javadoc site the verdicts on colour, one copy of message and
    /// evidence a link, were 10 MB of the whole crawl's peak heap (heaptrack); deciding the
    /// verdict on styling for each link was a tenth of the rule's cost there (callgrind).
    private final class Verdicts<Key: Hashable, Verdict> {
        private var verdicts: [Key: Verdict] = [:]

        func verdict(_ key: Key, _ make: () -> Verdict) -> Verdict {
            if let known = verdicts[key] { return known }
            let verdict = make()
            verdicts[key] = verdict
            return verdict
        }
    }

    private static func verdicts(on page: PageContext) -> Verdicts<ColourKey, CheckResult> {
        page.memo("link-in-text-block.verdicts") { Verdicts() }
    }

    /// At least 3:1 between the link's text colour and the text's, or between their backgrounds;
    /// with the colours it was decided on, when it was.
    private func colourDifference(_ link: Element, _ block: Element, _ page: PageContext) -> (CheckResult, Colours?) {
        let facts = ContrastFacts.of(page)
        let linkBackground = facts.background(of: link), blockBackground = facts.background(of: block)
        guard case .known(let linkBack) = linkBackground, case .known(let blockBack) = blockBackground else {
            let (key, message): (String, String)
            if case .unknown(let reason, let text) = linkBackground { (key, message) = (reason, text) }
            else if case .unknown(let reason, let text) = blockBackground { (key, message) = (reason, text) }
            else { (key, message) = ("bgContrast", "The backgrounds could not be compared.") }
            return (CheckResult(.incomplete("Whether the link's colour sets it apart is not known: \(message)"), evidence: ["messageKey": .text(key)]), nil)
        }
        guard let linkColor = page.styles.color(of: link), let textColor = page.styles.color(of: block) else {
            return (CheckResult(.incomplete("The text colour of the link or of its paragraph could not be read.")), nil)
        }
        let colours = Colours(
            linkShown: facts.painted(linkColor, of: link, over: linkBack), textShown: facts.painted(textColor, of: block, over: blockBack),
            linkBack: linkBack, blockBack: blockBack
        )
        return (Self.verdicts(on: page).verdict(ColourKey(colours: colours, colourOnly: false)) { Self.colourVerdict(colours) }, colours)
    }

    private static func colourVerdict(_ colours: Colours) -> CheckResult {
        let (linkShown, textShown, linkBack, blockBack) = (colours.linkShown, colours.textShown, colours.linkBack, colours.blockBack)
        let textContrast = ColorContrast.truncated(RGBA.contrastRatio(linkShown, textShown))
        if textContrast >= 3 { return CheckResult(.pass) }
        let backgroundContrast = ColorContrast.truncated(RGBA.contrastRatio(linkBack, blockBack))
        if backgroundContrast >= 3 { return CheckResult(.pass) }
        // Same colours and same background: colour plays no part, the styling decides alone.
        if textContrast == 1, backgroundContrast == 1 { return CheckResult(.pass) }
        if textContrast == 1 {
            return CheckResult(
                .violation("Only the link's background sets it apart, at \(ColorContrast.number(backgroundContrast)):1 against the text's (\(linkBack.hex) on \(blockBack.hex)); 3:1 is needed."),
                evidence: [
                    "messageKey": .text("bgContrast"), "contrastRatio": .number(backgroundContrast),
                    "expectedContrastRatio": .text("3:1"), "nodeBackgroundColor": .text(linkBack.hex), "parentBackgroundColor": .text(blockBack.hex),
                ]
            )
        }
        return CheckResult(
            .violation("The link's colour \(linkShown.hex) has \(ColorContrast.number(textContrast)):1 of contrast with the text's \(textShown.hex); 3:1 is needed."),
            evidence: [
                "messageKey": .text("fgContrast"), "contrastRatio": .number(textContrast),
                "expectedContrastRatio": .text("3:1"), "nodeColor": .text(linkShown.hex), "parentColor": .text(textShown.hex),
            ]
        )
    }

    // MARK: Styling

    /// What can set a link apart besides colour.
    private static let distinguishingProperties = PropertySet([
        .textDecorationLine, .textDecorationStyle, .fontStyle, .fontFamily, .borderTopStyle, .borderTopWidth, .borderTopColor,
        .borderBottomStyle, .borderBottomWidth, .borderBottomColor, .outlineStyle, .content,
    ])

    /// A verdict on styling reads the computed values of the link and of its block alone, which
    /// their style nodes decide.
    private struct StyleNodes: Hashable {
        let link: Int
        let block: Int
    }

    private static func styleVerdicts(on page: PageContext) -> Verdicts<StyleNodes, CheckOutcome> {
        page.memo("link-in-text-block.styles") { Verdicts() }
    }

    /// Whether the link's own styling differs from its block's in a way that shows without colour.
    private func styleDifference(_ link: Element, _ block: Element, _ styles: ComputedStyles) -> CheckOutcome {
        if styles.lowercasedValue(.backgroundImage, of: link) != "none" { return .pass }
        if Self.hasVisibleLine(link, styles) { return .pass }
        // Equal lists (a link nearly always inherits its text's) have the same first family.
        let families = (styles.value(.fontFamily, of: link), styles.value(.fontFamily, of: block))
        if families.0 != families.1, PlacedText.firstFontFamily(families.0) != PlacedText.firstFontFamily(families.1) { return .pass }
        for property in [CSSProperty.textDecorationLine, .textDecorationStyle, .fontStyle]
        where styles.lowercasedValue(property, of: link) != styles.lowercasedValue(property, of: block) {
            return .pass
        }
        let weights = (styles.fontWeight(of: link), styles.fontWeight(of: block))
        let sizes = (styles.fontSize(of: link), styles.fontSize(of: block))
        guard let linkWeight = weights.0, let blockWeight = weights.1, let linkSize = sizes.0, let blockSize = sizes.1 else {
            return .incomplete("The font weight or size of the link or of its text could not be computed.")
        }
        if linkWeight != blockWeight || abs(linkSize - blockSize) > 0.001 { return .pass }
        for pseudo in ["before", "after"] where styles.hasPseudoElementRules(pseudo, for: link) {
            let content = styles.pseudoElementValue(.content, of: link, pseudo: pseudo)?.lowercased() ?? "none"
            if content != "none", content != "normal" {
                return .incomplete("The link's ::\(pseudo) content may set it apart (an icon, a mark); a person must judge.")
            }
        }
        return .violation("no styling of its own")
    }

    /// A top or bottom border, or an outline, that is drawn.
    private static func hasVisibleLine(_ link: Element, _ styles: ComputedStyles) -> Bool {
        let borders: [(CSSProperty, CSSProperty, CSSProperty)] = [
            (.borderTopStyle, .borderTopWidth, .borderTopColor), (.borderBottomStyle, .borderBottomWidth, .borderBottomColor),
        ]
        for (style, width, color) in borders {
            let lineStyle = styles.value(style, of: link).lowercased()
            guard lineStyle != "none", lineStyle != "hidden" else { continue }
            let widthText = styles.value(width, of: link).lowercased()
            let drawnWidth = ["thin", "medium", "thick"].contains(widthText)
                || (CSSLength.pixels(widthText, in: LengthContext(fontSize: 16, rootFontSize: 16, viewport: styles.viewport)) ?? 1) > 0
            if drawnWidth, (styles.colorValue(color, of: link)?.alpha ?? 1) > 0 { return true }
        }
        let outline = styles.lowercasedValue(.outlineStyle, of: link)
        return outline != "none" && outline != "hidden"
    }

    public let examples = RuleExamples(
        passing: [
            #"<p>Read the <a href="/guide">guide</a> first.</p>"#,
            #"<p>Read the <a href="/guide" style="text-decoration: none; font-weight: bold">guide</a> first.</p>"#,
            #"<style>a { text-decoration: none; color: #0000ee }</style><p style="color: #ccc">Read the <a href="/guide">guide</a> first, please.</p>"#,
            #"<style>a { text-decoration: none; border-bottom: 1px solid }</style><p>Read the <a href="/guide">guide</a> first.</p>"#,
        ],
        violating: [
            RuleExample(
                #"<style>a { text-decoration: none; color: #333 }</style><p>Read the <a href="/guide">guide</a> first.</p>"#, at: "a"
            ),
            RuleExample(
                #"<p>Read the <a href="/guide" style="text-decoration: none; color: #000; background: #fcc">guide</a> first.</p>"#, at: "a"
            ),
            // Two links of one block, styled apart: each has its own verdict on styling.
            RuleExample(
                #"<style>a { text-decoration: none; color: #333 } .marked { text-decoration: underline }</style><p>Read the <a class="marked" href="/guide">guide</a> and the <a class="plain" href="/index">index</a> first, then the rest.</p>"#,
                at: ".plain"
            ),
        ],
        incomplete: [
            RuleExample(
                #"<p style="background: linear-gradient(#fff, #eee)">Read the <a href="/guide" style="text-decoration: none; color: #333">guide</a> first.</p>"#,
                at: "a"
            ),
            RuleExample(
                #"<style>a::before { content: "→" }</style><p>Read the <a href="/guide" style="text-decoration: none; color: #222">guide</a> first.</p>"#,
                at: "a"
            ),
        ],
        inapplicable: [
            #"<p><a href="/guide">The guide</a></p>"#,
            #"<ul><li><a href="/guide">The guide</a></li></ul>"#,
            #"<p>Links: <a href="/a">First link</a> / <a href="/b">Second link</a></p>"#,
            #"<p>Text that ends here<br><a href="/guide">The guide</a></p>"#,
            #"<p style="display: none">Read the <a href="/guide">guide</a> first.</p>"#,
        ]
    )
}
