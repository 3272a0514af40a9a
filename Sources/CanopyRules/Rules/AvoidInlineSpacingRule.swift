import CanopyAccessibility
import CanopyHTML
import CanopyStyle

/// People who need more space between letters, words or lines override a page's spacing with a
/// style sheet of their own; a `style` attribute that sets it `!important` wins over theirs, so
/// it must already be wide enough (WCAG 1.4.12 Text Spacing): letter spacing 0.12em, word
/// spacing 0.16em, line height 1.5.
public struct AvoidInlineSpacingRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "avoid-inline-spacing",
        impact: .serious,
        tags: ["cat.structure", "wcag21aa", "wcag1412", "EN-301-549", "EN-9.1.4.12", "ACT"],
        description: "Checks that text spacing set !important in style attributes leaves the minimums WCAG asks readers to be able to set",
        help: "Spacing set !important in a style attribute must be wide enough",
        howToFix: "Drop !important from letter-spacing, word-spacing and line-height in the style attribute, or set them to at least 0.12em, 0.16em and 1.5.",
        enabledByDefault: true,
        rationale: "Readers with dyslexia or low vision widen text spacing with their own style sheet; an !important style attribute is the one thing it cannot override."
    )

    public let selector = try! SelectorList("[style]")

    /// Ems are of the computed font size, which any sheet may set.
    public var stylesRead: PropertySet {
        PropertySet([.fontSize, .letterSpacing, .wordSpacing, .lineHeight, .display, .whiteSpace, .width, .maxWidth])
    }

    /// The minimum of each spacing property, in ems (line height: times the font size).
    private struct Spacing {
        let property: CSSProperty
        let minimum: Double
        /// What `normal` amounts to.
        let normal: Double
        /// Line height matters only for text that runs over more than one line.
        let multiLineOnly: Bool
    }

    private static let spacings = [
        Spacing(property: .letterSpacing, minimum: 0.12, normal: 0, multiLineOnly: false),
        Spacing(property: .wordSpacing, minimum: 0.16, normal: 0, multiLineOnly: false),
        Spacing(property: .lineHeight, minimum: 1.5, normal: 1, multiLineOnly: true),
    ]

    /// Keywords that hand the value back to the cascade, where the reader's sheet can reach it.
    private static let deferringKeywords: Set<String> = ["inherit", "unset", "revert", "revert-layer"]

    /// Elements on screen with text: spacing on an empty box, or one placed off the page, is
    /// read by nobody (the ACT rules' applicability).
    public func applies(to element: Element, on page: PageContext) -> Bool {
        guard ContrastFacts.of(page).isSeen(element) else { return false }
        if case .offScreen = ScreenPlacement.of(element, on: page) { return false }
        return page.accessibility.hasVisibleText(element)
    }

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        let inline = DeclarationBlock(parsing: element.attribute("style") ?? "")
        let styles = page.styles
        var undecided: [String] = []
        for spacing in Self.spacings {
            guard let declaration = inline.declarations.last(where: { $0.property == spacing.property && $0.important }) else { continue }
            if Self.deferringKeywords.contains(declaration.value.lowercased()) { continue }
            // The texts the declaration reaches: a descendant that sets the property itself styles
            // its own text, and a length is inherited as pixels, measured against each text's size.
            let texts = Self.textsReached(by: spacing.property, from: element, styles)
            guard !texts.isEmpty else { continue }
            if spacing.multiLineOnly {
                switch Self.lineCount(of: element, on: page) {
                case .one: continue
                case .unknown:
                    guard let value = Self.smallest(spacing, from: element, over: texts, styles), value < spacing.minimum else { continue }
                    undecided.append("line-height is \(ColorContrast.number(value)) !important, under 1.5, and only layout can tell whether this text wraps onto a second line")
                    continue
                case .several: break
                }
            }
            guard let value = Self.smallest(spacing, from: element, over: texts, styles) else {
                undecided.append("\(spacing.property.name) \"\(styles.value(spacing.property, of: element))\" could not be computed")
                continue
            }
            if value < spacing.minimum {
                let unit = spacing.property == .lineHeight ? "" : "em"
                return .violation(
                    "\(spacing.property.name) is set !important in the style attribute to \(ColorContrast.number(value))\(unit) of the text's size, under the \(ColorContrast.number(spacing.minimum))\(unit) readers must be able to set."
                )
            }
        }
        if !undecided.isEmpty { return .incomplete(undecided.joined(separator: "; ") + ".") }
        return .pass
    }

    /// The element and its descendants that hold text of their own and take `property` from the
    /// element: none of the elements from them up to it (itself excepted) sets it.
    private static func textsReached(by property: CSSProperty, from element: Element, _ styles: ComputedStyles) -> [Element] {
        var reached: [Element] = []
        func visit(_ box: Element) {
            if box.containsTextChild(where: { !RunningText.sanitized($0).isEmpty }) { reached.append(box) }
            for child in box.children where !styles.declares(property, for: child) && styles.display(of: child) != "none" {
                visit(child)
            }
        }
        visit(element)
        return reached
    }

    /// The smallest spacing, in ems of each reached text's own font size, rounded to hundredths:
    /// a length is computed once on the element and inherited as pixels; a line-height number
    /// and `normal` are inherited as such.
    private static func smallest(_ spacing: Spacing, from element: Element, over texts: [Element], _ styles: ComputedStyles) -> Double? {
        guard let fontSize = styles.fontSize(of: element), fontSize > 0 else { return nil }
        let value = styles.value(spacing.property, of: element).lowercased()
        let relative: Double?
        let pixels: Double?
        if value == "normal" {
            (relative, pixels) = (spacing.normal, nil)
        } else if spacing.property == .lineHeight, let number = Double(value) {
            (relative, pixels) = (number, nil)
        } else {
            let context = LengthContext(fontSize: fontSize, rootFontSize: 16, viewport: styles.viewport)
            // Percentages of word spacing and line height are of the font size.
            guard let computed = CSSLength.pixels(value, in: context, percentBase: fontSize) else { return nil }
            (relative, pixels) = (nil, computed)
        }
        var smallest: Double?
        for text in texts {
            let ems: Double
            if let relative {
                ems = relative
            } else {
                guard let size = styles.fontSize(of: text), size > 0, let pixels else { return nil }
                ems = pixels / size
            }
            let rounded = (ems * 100).rounded() / 100
            smallest = min(smallest ?? rounded, rounded)
        }
        return smallest
    }

    private enum LineCount { case one, several, unknown }

    /// Whether the element's text is certainly on one line, certainly on several, or either
    /// depending on layout: a forced break (`<br>`, a block inside) makes several; text with no
    /// place to wrap stays on one; text wider than the viewport, or half as wide again as a box
    /// of fixed width around it, wraps.
    private static func lineCount(of element: Element, on page: PageContext) -> LineCount {
        let styles = page.styles
        if element.descendants.contains(where: { ($0.isHTML && $0.localName == "br") || styles.startsBlock($0) }) { return .several }
        let text = page.accessibility.visibleText(of: element)
        if !text.contains(" "), !text.contains("-") { return .one }
        let whiteSpace = styles.lowercasedValue(.whiteSpace, of: element)
        if whiteSpace == "nowrap" || whiteSpace == "pre" { return .one }
        // Latin text averages half an em a character or more; a narrow 0.4em keeps this certain.
        guard let size = styles.fontSize(of: element) else { return .unknown }
        let textWidth = Double(text.count) * 0.4 * size
        if textWidth > styles.viewport.width { return .several }
        var narrowest = Double.infinity
        for box in [element] + Array(element.ancestors) {
            let context = LengthContext(fontSize: styles.fontSize(of: box) ?? 16, rootFontSize: 16, viewport: styles.viewport)
            for property in [CSSProperty.width, .maxWidth] {
                if let pixels = CSSLength.pixels(styles.value(property, of: box), in: context), pixels > 0 { narrowest = min(narrowest, pixels) }
            }
        }
        return textWidth > 1.5 * narrowest ? .several : .unknown
    }

    public let examples = RuleExamples(
        passing: [
            #"<p style="letter-spacing: 0.05em">Not important, so readers can widen it</p>"#,
            #"<p style="letter-spacing: 0.12em !important; word-spacing: 0.2em !important">Wide enough</p>"#,
            #"<p style="line-height: 1.2 !important">Oneword</p>"#,
            #"<p style="word-spacing: inherit !important">Handed back to the cascade</p>"#,
            // The paragraph sets its own spacing: the div's reaches no text.
            #"<div style="letter-spacing: 0.1em !important"><p style="letter-spacing: 0.2em !important">Own spacing</p></div>"#,
            // 2px inherited by 10px text is 0.2em of it.
            #"<div style="font-size: 16px; word-spacing: 2px !important"><p style="font-size: 10px">Smaller text</p></div>"#,
        ],
        violating: [
            RuleExample(#"<p style="letter-spacing: 1px !important">Tight letters</p>"#, at: "p"),
            RuleExample(#"<p style="word-spacing: 0.1em !important">Tight words</p>"#, at: "p"),
            RuleExample(#"<p style="line-height: 1.2 !important">First line<br>Second line</p>"#, at: "p"),
            // Some 430px of text in a box of 200px runs over several lines, whatever the font.
            RuleExample(
                #"<p style="line-height: 1.2 !important; max-width: 200px">The toy brought back fond memories of being lost in the rain forest.</p>"#,
                at: "p"
            ),
        ],
        incomplete: [
            RuleExample(#"<p style="line-height: 1.2 !important">A sentence that may or may not wrap</p>"#, at: "p")
        ],
        inapplicable: [
            #"<p>No style attribute</p>"#,
            #"<p style="letter-spacing: 0 !important; display: none">Not rendered</p>"#,
            #"<div style="letter-spacing: 0.1em !important"></div>"#,
            #"<p style="position: absolute; top: -999em; letter-spacing: 0.1em !important">Off the page</p>"#,
        ]
    )
}
