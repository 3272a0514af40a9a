import CanopyAccessibility
import CanopyHTML
import CanopyStyle

/// A box that scrolls its content can only be scrolled from the keyboard when focus can get into
/// it: the box itself or something inside it must be in the tab order (Safari does not make
/// scrolling boxes focusable on its own). Whether a box really overflows is a matter of layout;
/// the cascade decides it only where a child is wider than the box whatever the fonts and the
/// text. Everywhere else the rule asks for review rather than guess.
public struct ScrollableRegionFocusableRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "scrollable-region-focusable",
        impact: .serious,
        tags: [
            "cat.keyboard", "wcag2a", "wcag211", "wcag213", "TTv5", "TT4.a", "EN-301-549", "EN-9.2.1.1", "EN-9.2.1.3",
            "RGAAv4", "RGAA-7.3.2",
        ],
        description: "Checks that elements whose content scrolls are in the tab order or contain something that is",
        help: "Scrolling regions need keyboard access",
        howToFix: "Add tabindex=\"0\" to the scrolling element (with a role and a name that say what it holds), or put a link, button or other control inside it.",
        // Opt-in, unlike axe: whether a box's content overflows is layout, so on a real site most
        // scrolling boxes come out "review" (16 a page on java.base, 46,321 in all, where axe
        // finds none overflowing); noise in the default set.
        enabledByDefault: false,
        rationale: "Content that can only be scrolled with a mouse or touch is out of reach for keyboard users, who cannot read what is below or beside the visible part."
    )

    /// Form fields scroll their own value, which their focus already reaches (axe's selector).
    public let selector = try! SelectorList("*:not(select, textarea)")

    public var stylesRead: PropertySet {
        PropertySet([
            .overflowX, .overflowY, .display, .position, .float, .transform, .whiteSpace, .width, .minWidth, .maxWidth,
            .marginLeft, .marginRight, .paddingLeft, .paddingRight,
        ])
    }

    /// Only a declaration can make a box scroll (`overflow` is not inherited and the user-agent
    /// sheet sets it on no element): without an author rule declaring it, only elements with a
    /// `style` attribute are worth asking. Asking the cascade for every element of a page cost
    /// a tenth of the whole unstyled crawl of java.base.
    public func candidates(on page: PageContext) -> [Element]? {
        guard !page.styles.index.authorDeclared.intersects(PropertySet([.overflowX, .overflowY])) else { return nil }
        return page.elements(matching: selector).filter { $0.hasAttribute("style") }
    }

    /// HTML boxes that may scroll content of their own (`overflow` auto or scroll on an axis) and
    /// have something visible to scroll to. Frames scroll another document; a combobox's popup
    /// is reached through its combobox.
    public func applies(to element: Element, on page: PageContext) -> Bool {
        guard element.isHTML, !Self.embedding.contains(element.localName) else { return false }
        let overflow = Self.overflow(of: element, page.styles)
        guard overflow.x.scrolls || overflow.y.scrolls else { return false }
        guard !NamingChecks(page).isComboboxPopup(element) else { return false }
        return Self.hasVisibleContent(element, page)
    }

    private static let embedding: Set<String> = ["iframe", "frame", "object", "embed", "html", "body"]

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        let model = page.accessibility
        if model.isTabbable(element) || Self.isEditable(element) { return .pass }
        if element.descendants.contains(where: model.isTabbable) { return .pass }
        let overflow = Self.overflow(of: element, page.styles)
        if overflow.x.scrolls, let child = Self.childWiderThanBox(element, page) {
            return .violation(
                "The content (\(child)) is wider than the scrolling box, and neither the box nor anything in it is in the tab order, so keyboard users cannot scroll to it."
            )
        }
        return .incomplete(
            "Neither the box nor anything in it is in the tab order; whether its content overflows, and so needs keyboard scrolling, depends on layout."
        )
    }

    // MARK: Overflow

    enum Overflow: Equatable {
        case visible, hidden, clip, auto, scroll

        var scrolls: Bool { self == .auto || self == .scroll }
    }

    /// The computed `overflow-x` and `overflow-y`: when one axis is not visible or clip, the
    /// other's visible computes to auto and clip to hidden (CSS Overflow 3).
    static func overflow(of element: Element, _ styles: ComputedStyles) -> (x: Overflow, y: Overflow) {
        func read(_ property: CSSProperty) -> Overflow {
            switch styles.value(property, of: element).lowercased() {
            case "hidden": return .hidden
            case "clip": return .clip
            case "auto", "overlay": return .auto
            case "scroll": return .scroll
            default: return .visible
            }
        }
        var x = read(.overflowX), y = read(.overflowY)
        let boxed: (Overflow) -> Bool = { $0 != .visible && $0 != .clip }
        if boxed(y) { x = x == .visible ? .auto : x == .clip ? .hidden : x }
        if boxed(x) { y = y == .visible ? .auto : y == .clip ? .hidden : y }
        return (x, y)
    }

    // MARK: Content

    /// Text, or a graphic or control that shows, somewhere inside (ACT: visible children).
    static func hasVisibleContent(_ element: Element, _ page: PageContext) -> Bool {
        let model = page.accessibility
        if !model.visibleText(of: element).allSatisfy(\.isWhitespace) { return true }
        return element.descendants.contains { descendant in
            let shows = descendant.isHTML
                ? shownWithoutText.contains(descendant.localName)
                    && (descendant.localName != "input" || descendant.attribute("type")?.lowercased() != "hidden")
                : descendant.localName == "svg"
            return shows && !model.isNotRendered(descendant)
        }
    }

    private static let shownWithoutText: Set<String> = [
        "img", "video", "canvas", "picture", "input", "button", "select", "textarea", "meter", "progress", "iframe",
        "object", "embed",
    ]

    /// `contenteditable` makes the box itself focusable; inherited from an editable ancestor
    /// unless set to false (axe's focusable-element check).
    static func isEditable(_ element: Element) -> Bool {
        var current: Element? = element
        while let node = current {
            if let value = node.attribute("contenteditable")?.lowercased() {
                if value == "" || value == "true" || value == "plaintext-only" { return true }
                if value == "false" { return false }
            }
            current = node.parent
        }
        return false
    }

    // MARK: Width

    /// A child, named for the message, that certainly reaches further right than the box can
    /// show without scrolling: its definite width (and non-negative left margin) exceeds the
    /// box's definite width by more than the box's horizontal padding, and the box lays its
    /// children out in normal flow, where nothing shrinks them. With `white-space: nowrap` or
    /// `pre`, inline boxes side by side add up on one line. Nil whenever layout could differ.
    static func childWiderThanBox(_ box: Element, _ page: PageContext) -> String? {
        let styles = page.styles, model = page.accessibility
        guard ["block", "flow-root", "list-item", "inline-block", "block flow"].contains(styles.display(of: box)) else { return nil }
        let context = lengthContext(of: box, styles)
        guard var width = definiteLength(.width, of: box, styles, context) else { return nil }
        if styles.declares(.minWidth, for: box) {
            let minimum = styles.lowercasedValue(.minWidth, of: box)
            if minimum != "auto" {
                guard let pixels = definiteLength(.minWidth, of: box, styles, context) else { return nil }
                width = max(width, pixels)
            }
        }
        guard let paddingLeft = definiteLength(.paddingLeft, of: box, styles, context),
            let paddingRight = definiteLength(.paddingRight, of: box, styles, context)
        else { return nil }
        // The content starts after the left padding; the box shows its padding box. What lies
        // beyond it must exceed both paddings for ACT to count the box as scrollable.
        let needed = width + paddingRight + max(paddingLeft, paddingRight)

        var line: Double = 0
        let noWrap = ["nowrap", "pre"].contains(styles.lowercasedValue(.whiteSpace, of: box))
        for child in box.children where !model.isNotRendered(child) {
            // `width` sizes block boxes, inline blocks and replaced elements, not inline text boxes;
            // a transform may shrink what is drawn.
            let block = styles.startsBlock(child)
            guard block || styles.isInlineBlock(child) || replaced.contains(child.localName) && styles.display(of: child) != "contents",
                ["static", "relative"].contains(styles.lowercasedValue(.position, of: child)),
                styles.lowercasedValue(.float, of: child) == "none",
                styles.lowercasedValue(.transform, of: child) == "none",
                let extent = outerWidth(of: child, inside: width, styles)
            else { continue }
            let inline = !block
            if extent > needed { return "<\(child.localName)>, \(Int(extent))px" }
            if inline && noWrap {
                line += extent
                if line > needed { return "a line of boxes that does not wrap, \(Int(line))px" }
            }
        }
        return nil
    }

    /// The child's left margin plus its definite width (at least its border box whatever its
    /// `box-sizing`), capped by a definite `max-width`; nil when either is unknown or negative.
    private static func outerWidth(of child: Element, inside boxWidth: Double, _ styles: ComputedStyles) -> Double? {
        let context = lengthContext(of: child, styles)
        var width: Double
        if styles.declares(.width, for: child) {
            guard let pixels = definiteLength(.width, of: child, styles, context) else { return nil }
            width = pixels
        } else if replaced.contains(child.localName), let attribute = child.attribute("width"),
            let pixels = JavaScriptNumbers.parseInt(attribute), pixels > 0
        {
            // The width attribute of an image or video, when no style sets its width.
            width = Double(pixels)
        } else {
            return nil
        }
        if styles.declares(.maxWidth, for: child), styles.lowercasedValue(.maxWidth, of: child) != "none" {
            guard let maximum = definiteLength(.maxWidth, of: child, styles, context, percentBase: boxWidth) else { return nil }
            width = min(width, maximum)
        }
        let marginText = styles.lowercasedValue(.marginLeft, of: child)
        let margin = marginText == "auto" ? 0 : CSSLength.pixels(marginText, in: context, percentBase: boxWidth)
        guard let margin, margin >= 0 else { return nil }
        return margin + width
    }

    private static let replaced: Set<String> = ["img", "video", "canvas", "iframe", "embed", "object"]

    /// A length in pixels; nil for auto, percentages without a base, and anything else layout decides.
    private static func definiteLength(
        _ property: CSSProperty, of element: Element, _ styles: ComputedStyles, _ context: LengthContext, percentBase: Double? = nil
    ) -> Double? {
        let text = styles.value(property, of: element).lowercased()
        guard text != "auto", !text.contains("calc"), !text.contains("content") else { return nil }
        return CSSLength.pixels(text, in: context, percentBase: percentBase)
    }

    private static func lengthContext(of element: Element, _ styles: ComputedStyles) -> LengthContext {
        LengthContext(fontSize: styles.fontSize(of: element) ?? 16, rootFontSize: 16, viewport: styles.viewport)
    }

    public let examples = RuleExamples(
        passing: [
            #"<div style="width: 200px; overflow-x: auto" tabindex="0" role="region" aria-label="Prices"><p style="width: 600px">Prices</p></div>"#,
            #"<div style="height: 50px; overflow-y: scroll"><a href="/terms">Terms</a><p>Long text</p></div>"#,
        ],
        violating: [
            RuleExample(#"<div style="width: 200px; overflow-x: auto"><p style="width: 600px">Prices</p></div>"#, at: "div"),
            RuleExample(
                #"<div style="width: 150px; overflow: auto; white-space: nowrap"><img src="a.png" alt="A" width="80"> <img src="b.png" alt="B" width="80"></div>"#,
                at: "div"
            ),
        ],
        incomplete: [
            RuleExample(#"<div style="height: 40px; overflow-y: auto"><p>Terms and conditions</p></div>"#, at: "div"),
            // The padding takes up what the child exceeds by: scrolling only shows padding.
            RuleExample(#"<div style="width: 200px; padding-left: 40px; overflow: auto"><p style="width: 210px">Prices</p></div>"#, at: "div"),
        ],
        inapplicable: [
            #"<div style="height: 40px; overflow: hidden"><p>Terms and conditions</p></div>"#,
            #"<div style="width: 200px; overflow-x: scroll"><div style="width: 600px; height: 1px"></div></div>"#,
            #"<div style="height: 40px"><p>Terms and conditions</p></div>"#,
        ]
    )
}
