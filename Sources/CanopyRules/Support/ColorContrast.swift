import CanopyAccessibility
import CanopyHTML
import CanopyStyle
import Foundation

/// The contrast check shared by color-contrast (AA) and color-contrast-enhanced (AAA), after
/// axe-core's color-contrast check, decided from the cascade alone. Whatever only layout could
/// tell (an image or gradient behind the text, something positioned over or under it, a shadow,
/// a filter) makes the result incomplete with axe's reason id, never a pass.
public struct ColorContrast: Sendable {
    /// Required ratios for normal and large text.
    let normalRatio: Double
    let largeRatio: Double

    public static let aa = ColorContrast(normalRatio: 4.5, largeRatio: 3)
    public static let aaa = ColorContrast(normalRatio: 7, largeRatio: 4.5)
    static let everyElement = try! SelectorList("*")

    // MARK: Which elements

    private static let textlessInputTypes: Set<String> = ["hidden", "range", "color", "checkbox", "radio", "image"]

    /// The elements with text of their own (a text node child that says something), and form
    /// fields, as axe's color-contrast-matches picks them; and the shadow hosts the page's
    /// scripts make, whose text Canopy cannot see.
    static func candidates(on page: PageContext) -> [Element] {
        page.memo("color-contrast.candidates") {
            let shadowHosts = ScriptShadowHosts.positions(on: page)
            return page.document.elements.filter { element in
                switch element.localName {
                case "input", "select", "textarea": return element.isHTML
                default: return hasOwnText(element) || shadowHosts.contains(element.position)
                }
            }
        }
    }

    /// Whether the element's own text (its text children joined, whitespace folded and trimmed)
    /// keeps something once emoji and the punctuation axe strips are taken out, as axe's
    /// color-contrast-matches asks. A space between two such characters is kept ("| |" has
    /// text), a lone separator is not (javadoc's "&nbsp;|&nbsp;" between its sub-navigation links).
    static func hasOwnText(_ element: Element) -> Bool {
        // Most elements' own text is ASCII (often only the whitespace between tags): read in place,
        // without folding it into a string.
        var scan = ASCIIOwnTextScan()
        _ = element.containsTextChild(whereBytes: { scan.settles($0) })
        if let verdict = scan.verdict { return verdict }
        return !isOnlyStrippedText(visibleText(of: element))
    }

    /// `hasOwnText` of ASCII text (and no-break spaces, `&nbsp;`) read a piece at a time: a
    /// character that is neither whitespace nor stripped keeps something, and so does a space
    /// between two runs of stripped characters (the folded text keeps it). Other text stays
    /// undecided for the folded text to tell.
    struct ASCIIOwnTextScan {
        private var runs = 0
        private var inRun = false
        private var keeps = false
        private var sawNonASCII = false
        /// The lead byte of a no-break space (C2 A0) was just read.
        private var afterC2 = false

        /// Whether the text read keeps something, or nil when a non-ASCII byte leaves it to the
        /// folded text.
        var verdict: Bool? { sawNonASCII || afterC2 ? nil : keeps }

        /// Reads the next piece; true once the answer is known (text kept, or other non-ASCII text).
        mutating func settles(_ bytes: some Collection<UInt8>) -> Bool {
            for byte in bytes {
                if afterC2 {
                    afterC2 = false
                    guard byte == 0xA0 else {
                        sawNonASCII = true
                        return true
                    }
                    inRun = false
                    continue
                }
                switch byte {
                case 0x09...0x0D, 0x20:
                    inRun = false
                case 0xC2:
                    afterC2 = true
                case 0x80...:
                    sawNonASCII = true
                    return true
                case _ where CuratedText.isPunctuation(Unicode.Scalar(byte)):
                    if !inRun {
                        inRun = true
                        runs += 1
                        if runs > 1 {
                            keeps = true
                            return true
                        }
                    }
                default:  // letters, digits, other controls, DEL
                    keeps = true
                    return true
                }
            }
            return false
        }
    }

    /// Folded text that is empty, or all emoji and the punctuation axe strips before it calls
    /// text real: ASCII punctuation and symbols, ±, £, ¢, ¥, § and €, and the General and
    /// Supplemental Punctuation blocks. Emoji as axe's emoji pattern has them, text presentation
    /// included (©, ™, ↔), but not the ASCII digits, `#` and `*` that only start a keycap.
    static func isOnlyStrippedText(_ folded: String) -> Bool {
        folded.unicodeScalars.allSatisfy { scalar in
            if CuratedText.isPunctuation(scalar) || scalar == "\u{FE0F}" { return true }  // FE0F: the emoji presentation selector
            return !scalar.isASCII && scalar.properties.isEmoji
        }
    }

    static func applies(to element: Element, on page: PageContext) -> Bool {
        let model = page.accessibility
        let name = element.localName
        let isField = element.isHTML && (name == "input" || name == "select" || name == "textarea")
        guard isField || hasOwnText(element) || ScriptShadowHosts.positions(on: page).contains(element.position) else { return false }
        if name == "option" || model.isNotRendered(element) || model.isInert(element) || model.isDisabled(element) { return false }
        if name == "select", !element.descendants.contains(where: { $0.localName == "option" }) { return false }
        if name == "input", textlessInputTypes.contains((element.attribute("type") ?? "text").lowercased()) { return false }
        // Without anything that disables, no control is disabled, nor is its label or name.
        if model.mayDisable, DisabledControlTexts.of(page).exempts(element, on: page) { return false }
        if ContrastFacts.of(page).isClippedAway(element) { return false }
        guard let size = page.styles.fontSize(of: element) else { return true }  // unknown size: decided as incomplete
        return size > 0
    }

    /// Text greyed out on purpose because it labels or names disabled controls (WCAG exempts it),
    /// found once per page: most pages have none, and then no text element looks further.
    private final class DisabledControlTexts {
        /// The subtrees (position ranges) of the labels of disabled controls.
        let labelsOfDisabled: [Range<Int>]
        /// For each id some aria-labelledby names: whether every element naming it is disabled;
        /// empty when no id is named by disabled controls alone.
        let labelledbyDisabled: [String: Bool]

        static func of(_ page: PageContext) -> DisabledControlTexts {
            // One page memo for both facts: each is asked of every text element of the page.
            page.memo("color-contrast.disabledControlTexts") { DisabledControlTexts(page) }
        }

        private init(_ page: PageContext) {
            // Climbing from every text element to look for a wrapping label cost more than the
            // rest of the rule's applicability; javadoc's pages have one disabled control.
            let hasDisabledField = ["input", "select", "textarea"].contains {
                page.document.elements(named: $0).contains(where: page.accessibility.isDisabled)
            }
            labelsOfDisabled = hasDisabledField
                ? page.document.elements(named: "label").filter { Self.labelsDisabledControl(label: $0, on: page) }
                    .map { $0.position..<$0.descendants.endIndex }
                : []
            labelledbyDisabled = Self.labelledbyDisabled(on: page)
        }

        func exempts(_ element: Element, on page: PageContext) -> Bool {
            labelsDisabledControl(element, on: page) || namesOnlyDisabledControls(element)
        }

        /// Text of a label whose control is disabled.
        private func labelsDisabledControl(_ element: Element, on page: PageContext) -> Bool {
            guard labelsOfDisabled.contains(where: { $0.contains(element.position) }),
                let label = element.isHTML && element.localName == "label" ? element : page.accessibility.wrappingLabel(of: element)
            else { return false }
            return labelsOfDisabled.contains { $0.lowerBound == label.position }
        }

        private static func labelsDisabledControl(label: Element, on page: PageContext) -> Bool {
            if let id = label.attribute("for"), let control = page.document.element(withID: id), page.accessibility.isDisabled(control) {
                return true
            }
            let control = label.descendants.first { ["input", "select", "textarea"].contains($0.localName) }
            return control.map { page.accessibility.isDisabled($0) } ?? false
        }

        /// Text that names, through aria-labelledby, only controls that are disabled.
        private func namesOnlyDisabledControls(_ element: Element) -> Bool {
            guard !labelledbyDisabled.isEmpty else { return false }
            var named = false
            for box in [element] + Array(element.ancestors) {
                guard let id = box.id, let allDisabled = labelledbyDisabled[id] else { continue }
                guard allDisabled else { return false }
                named = true
            }
            return named
        }

        /// Built once per page: a page where 100,000 elements name one id must not cost each text
        /// element a scan of all of them.
        private static func labelledbyDisabled(on page: PageContext) -> [String: Bool] {
            let controls = page.document.elements(withAttribute: "aria-labelledby")
            let disabled = controls.map(page.accessibility.isDisabled)
            // Without a disabled control, no id is named only by disabled ones (javadoc names
            // hundreds of ids, and splitting them was most of this rule's cost on its pages).
            guard disabled.contains(true) else { return [:] }
            var table: [String: Bool] = [:]
            for (control, isDisabled) in zip(controls, disabled) {
                for id in (control.attribute("aria-labelledby") ?? "").split(whereSeparator: \.isWhitespace) {
                    table[String(id), default: true] = table[String(id), default: true] && isDisabled
                }
            }
            // Without an id named only by disabled controls, no text can be.
            return table.values.contains(true) ? table : [:]
        }
    }

    static func clipsOverflow(_ box: Element, _ styles: ComputedStyles) -> Bool {
        styles.lowercasedValue(.overflowX, of: box) != "visible" || styles.lowercasedValue(.overflowY, of: box) != "visible"
    }

    /// A plain CSS pixel length (`0`, `30px`); nil for anything relative or computed.
    static func pixels(_ value: String) -> Double? {
        if value == "0" { return 0 }
        guard value.hasSuffix("px") else { return nil }
        return Double(value.dropLast(2))
    }

    /// Why the text may be cut off by a box of fixed size that hides its overflow, if it may.
    private static func clippingReason(_ element: Element, _ facts: ContrastFacts) -> String? {
        let styles = facts.styles
        if facts.clipsOverflow(element), let indent = CSSLength.dimension(styles.lowercasedValue(.textIndent, of: element),
            context: LengthContext(fontSize: 16, rootFontSize: 16, viewport: styles.viewport), percentBase: nil), indent != 0 {
            return "its text is indented inside a box that hides what overflows"
        }
        return facts.fixedClipAroundParent(of: element)
    }

    // MARK: The check

    /// What decides the colours text is painted with, and whether it counts as large.
    static let paintingProperties = PropertySet([
        .color, .backgroundColor, .backgroundImage, .opacity, .fontSize, .fontWeight, .textShadow, .mixBlendMode, .filter,
        .backdropFilter, .display, .visibility, .position, .transform,
    ])

    func check(_ element: Element, on page: PageContext) -> CheckResult {
        let styles = page.styles
        guard let fontSize = styles.fontSize(of: element), let fontWeight = styles.fontWeight(of: element) else {
            return incomplete("colorParse", "The font size or weight of this text could not be computed from its styles.")
        }
        let bold = fontWeight >= 700
        let points = (fontSize * 72).rounded(.up) / 96
        let isLarge = bold ? points >= 14 : points >= 18
        let required = isLarge ? largeRatio : normalRatio
        // Evidence is built only for what a person will read (violations and reviews): a page of a
        // million passing text elements must not hold a million dictionaries.
        var measured: [String: EvidenceValue] = [:]
        func evidence() -> [String: EvidenceValue] {
            measured.merging([
                "fontSize": .text("\(Self.number((fontSize * 72 / 96 * 10).rounded() / 10))pt (\(Self.number(fontSize))px)"),
                "fontWeight": .text(bold ? "bold" : "normal"),
                "expectedContrastRatio": .text("\(Self.number(required)):1"),
            ]) { own, _ in own }
        }
        func undecided(_ key: String, _ message: String) -> CheckResult {
            measured["messageKey"] = .text(key)
            return CheckResult(.incomplete(message), evidence: evidence())
        }

        let facts = ContrastFacts.of(page)
        // Hidden on screen but present (visibility, opacity 0, clipped away): axe passes it as hidden.
        if page.accessibility.isVisibilityHidden(element) || facts.isTransparent(element) {
            return CheckResult(.pass)
        }
        if let host = ScriptShadowHosts.host(around: element, on: page) {
            return undecided(
                "shadowRoot",
                "A script of the page attaches a shadow root to \(host == element ? "this element" : Self.describe(host)): what it shows, and in which colours, is known only once the script runs."
            )
        }
        // A printable ASCII character of the element's own text rules out icons alone, read in
        // place: the folded text, a string, is made only when none has one.
        if !element.containsTextChild(whereBytes: { $0.contains(where: { $0 > 0x20 && $0 < 0x80 }) }) {
            let text = Self.visibleText(of: element)
            if !text.isEmpty, Self.isOnlyNonBMP(text) {
                return undecided("nonBmp", "The text is only icon-font or symbol characters, whose contrast a person must judge.")
            }
        }
        if let pseudo = facts.pseudoElementWithBackground(around: element) {
            return undecided("pseudoContent", "A ::\(pseudo) pseudo-element with a background may sit behind this text.")
        }
        if let reason = Self.clippingReason(element, facts) {
            return undecided("elmPartiallyObscured", "Part of the text may be cut off: \(reason); only layout can tell what shows.")
        }
        // Nearly all text has the initial width, "0": read as a length only when it is not.
        let strokeWidth = styles.value(.textStrokeWidth, of: element)
        if strokeWidth != "0", let stroke = CSSLength.pixels(strokeWidth, in: LengthContext(fontSize: fontSize, rootFontSize: 16, viewport: styles.viewport)),
           stroke / fontSize >= 0.03 {
            return undecided("colorParse", "The text is outlined (-webkit-text-stroke), so its visible colour is the stroke's as much as its own.")
        }
        guard let foreground = styles.color(of: element) else {
            return undecided("colorParse", "The text colour \"\(styles.value(.color, of: element))\" could not be read.")
        }
        let shadowContext = LengthContext(fontSize: fontSize, rootFontSize: 16, viewport: styles.viewport)
        let shadows: [RGBA]
        let shadowValue = styles.value(.textShadow, of: element)
        switch TextShadows.aroundText(shadowValue, textColor: foreground, fontSize: fontSize, context: shadowContext) {
        case .colors(let colors): shadows = colors
        case .tooComplex:
            return undecided("complexTextShadows", "The text has shadows on some sides only, an outline no single colour stands for.")
        }
        var background: RGBA
        switch facts.background(of: element) {
        case .known(let color): background = color
        case .unknown(let key, let message): return undecided(key, message)
        }
        if case .colors(let haze) = TextShadows.behindText(shadowValue, textColor: foreground, fontSize: fontSize, context: shadowContext),
           !haze.isEmpty {
            background = TextShadows.flattened(haze).blended(over: background)
        }
        let shown = facts.painted(foreground, of: element, over: background)
        var ratio = RGBA.contrastRatio(shown, background)
        var halo: RGBA?
        if !shadows.isEmpty {
            // A halo or outline helps when it stands out from the background or the text from it.
            let flattened = TextShadows.flattened(shadows + [background])
            ratio = max(ratio, RGBA.contrastRatio(flattened, background), RGBA.contrastRatio(shown, flattened))
            halo = flattened
        }
        let truncated = Self.truncated(ratio)
        let isEqual = truncated == 1
        // Most text passes, and a pass keeps no evidence: the colours are written out only for the rest.
        if ratio > required, !isEqual { return CheckResult(.pass) }
        if let halo { measured["shadowColor"] = .text(halo.hex) }
        measured["fgColor"] = .text(shown.hex)
        measured["bgColor"] = .text(background.hex)
        measured["contrastRatio"] = .number(truncated)
        if isEqual {
            return undecided("equalRatio", "The text colour equals its background (1:1): the text is probably hidden on purpose, which a person must confirm.")
        }
        if Self.visibleText(of: element).count == 1 {
            return undecided("shortTextContent", "A single character at \(Self.number(truncated)):1 may be an icon rather than text; a person must judge.")
        }
        let summary = "\(Self.number(truncated)):1, needs \(Self.number(required)):1 (text \(shown.hex) on \(background.hex), "
            + "\(Self.number((fontSize * 72 / 96 * 10).rounded() / 10))pt \(bold ? "bold" : "normal"))"
        return CheckResult(.violation("Contrast \(summary)."), evidence: evidence())
    }

    /// A ratio cut (not rounded) to hundredths, as axe-core reports and compares it: 4.499 is 4.49.
    static func truncated(_ ratio: Double) -> Double { (ratio * 100).rounded(.down) / 100 }

    private func incomplete(_ key: String, _ message: String) -> CheckResult {
        CheckResult(.incomplete(message), evidence: ["messageKey": .text(key)])
    }

    // MARK: Background

    enum Background {
        case known(RGBA)
        case unknown(key: String, message: String)
    }

    /// What one box contributes to the background of the text inside it: a reason the colour
    /// cannot be known, or its own background colour (with its opacity).
    static func backgroundLayer(of box: Element, _ facts: ContrastFacts) -> Background {
        switch facts.ownBackground(of: box) {
        case .unknown(let key, let message):
            return .unknown(key: key, message: message)
        case .color(let color, let overlap):
            // An opaque box hides whatever it lies over, wherever layout puts it.
            if color.alpha >= 1 { return .known(color) }
            if let reason = overlap.reason(siblingsPaint: { siblingsPaintBackgrounds(box, facts.styles) }), facts.othersMayLieUnder(box) {
                return .unknown(key: "bgOverlap", message: "\(describe(box)) \(reason), so what lies behind the text depends on layout.")
            }
            return .known(color)
        }
    }

    /// What a box's computed values alone say about its background: the same for every box of
    /// one style node, so `ContrastFacts` keeps it per node.
    enum OwnBackground {
        case unknown(key: String, message: String)
        case color(RGBA, overlap: Overlap)
    }

    /// Why a box may be painted over something other than its ancestors, from its computed values;
    /// a float counts only beside siblings that paint, which the page's structure tells.
    struct Overlap {
        let outOfFlow: String?
        let floats: Bool
        let shifted: String?

        func reason(siblingsPaint: () -> Bool) -> String? {
            if let outOfFlow { return outOfFlow }
            if floats, siblingsPaint() { return "floats beside elements with backgrounds of their own" }
            return shifted
        }
    }

    static func ownBackground(of box: Element, _ styles: ComputedStyles) -> OwnBackground {
        let image = styles.lowercasedValue(.backgroundImage, of: box)
        if image != "none" {
            let gradient = image.contains("gradient(")
            return .unknown(
                key: gradient ? "bgGradient" : "bgImage",
                message: "The background is \(gradient ? "a gradient" : "an image") on \(describe(box)), so its colour behind the text is not known."
            )
        }
        if styles.lowercasedValue(.mixBlendMode, of: box) != "normal" || styles.lowercasedValue(.filter, of: box) != "none"
            || styles.lowercasedValue(.backdropFilter, of: box) != "none" {
            return .unknown(key: "colorParse", message: "\(describe(box)) has a filter or blend mode, which changes the colours as painted.")
        }
        guard var color = styles.colorValue(.backgroundColor, of: box) else {
            return .unknown(key: "colorParse", message: "The background colour \"\(styles.value(.backgroundColor, of: box))\" of \(describe(box)) could not be read.")
        }
        if color.alpha > 0 { color.alpha *= styles.opacity(of: box) }
        if color.alpha >= 1 { return .color(color, overlap: Overlap(outOfFlow: nil, floats: false, shifted: nil)) }
        return .color(color, overlap: overlap(of: box, styles))
    }

    private static func overlap(of box: Element, _ styles: ComputedStyles) -> Overlap {
        let position = styles.lowercasedValue(.position, of: box)
        var outOfFlow: String?
        if position == "absolute" || position == "fixed" || position == "sticky" {
            outOfFlow = "is positioned (\(position))"
        } else if styles.lowercasedValue(.transform, of: box) != "none" {
            outOfFlow = "is transformed"
        } else if [CSSProperty.marginTop, .marginLeft, .marginRight, .marginBottom].contains(where: { styles.value($0, of: box).hasPrefix("-") }) {
            outOfFlow = "has a negative margin"
        }
        let floats = styles.lowercasedValue(.float, of: box) != "none"
        var shifted: String?
        if position == "relative", ["top", "left", "right", "bottom"].contains(where: { edge in
            let property: CSSProperty = edge == "top" ? .top : edge == "left" ? .left : edge == "right" ? .right : .bottom
            let value = styles.value(property, of: box).lowercased()
            return value != "auto" && value != "0" && value != "0px"
        }) {
            shifted = "is shifted from its place (position: relative with an offset)"
        }
        return Overlap(outOfFlow: outOfFlow, floats: floats, shifted: shifted)
    }

    /// In-flow siblings that paint: a float can lie over their backgrounds. Floats beside each
    /// other never overlap (a row of floated tabs), so they do not count.
    private static func siblingsPaintBackgrounds(_ box: Element, _ styles: ComputedStyles) -> Bool {
        guard let parent = box.parent else { return false }
        return parent.children.contains { sibling in
            sibling != box && styles.lowercasedValue(.float, of: sibling) == "none"
                && ((styles.colorValue(.backgroundColor, of: sibling)?.alpha ?? 1) > 0
                || styles.lowercasedValue(.backgroundImage, of: sibling) != "none")
        }
    }

    // MARK: Text and visibility

    /// The element's own text (its text node children), whitespace collapsed: what axe counts
    /// when it judges a single character. Descendants are left out so that a deep page costs
    /// each element its own text only.
    static func visibleText(of element: Element) -> String {
        RunningText.sanitized(utf8: element.utf8OfTextChildren)
    }

    /// Text that is icons and symbols alone, as axe's check tells it: at least one character of
    /// the blocks axe counts as such (icon fonts' private use areas, currency, letterlike
    /// symbols, number forms, arrows, mathematical operators, technical symbols, box drawing,
    /// shapes, dingbats…, and format characters), and nothing else but whitespace. Punctuation
    /// such as "|" or ", " is text whose contrast axe measures, and so does Canopy.
    static func isOnlyNonBMP(_ text: String) -> Bool {
        var hasIcon = false
        for scalar in text.unicodeScalars {
            if isIconCharacter(scalar) {
                hasIcon = true
            } else if !TextNormalization.isJavaScriptWhitespace(scalar) {
                return false
            }
        }
        return hasIcon
    }

    /// axe's "non-BMP" sets: the symbol blocks and private use areas curated text drops too, and
    /// the format characters (Cf) axe lists.
    private static func isIconCharacter(_ scalar: Unicode.Scalar) -> Bool {
        if CuratedText.isNonTextSymbol(scalar) { return true }
        switch scalar.value {
        case 0xAD, 0x600...0x605, 0x61C, 0x6DD, 0x70F, 0x8E2, 0x180E, 0x200B...0x200F, 0x202A...0x202E, 0x2060...0x2064,
             0x2066...0x206F, 0xFEFF, 0xFFF9...0xFFFB, 0x110BD, 0x110CD, 0x13430...0x13438, 0x1BCA0...0x1BCA3, 0x1D173...0x1D17A,
             0xE0001, 0xE0020...0xE007F:
            return true
        default: return false
        }
    }

    private static func describe(_ element: Element) -> String { "<\(element.localName)>" }

    /// Whole numbers bare, others to two decimals without a final zero ("4.5", "2.57"). By hand:
    /// `String(format:)` and a regular expression for each number were a tenth of the rule's time.
    static func number(_ value: Double) -> String {
        if value == value.rounded() { return String(Int(value)) }
        let hundredths = Int((abs(value) * 100).rounded())
        let fraction = hundredths % 100
        var text = (value < 0 ? "-" : "") + String(hundredths / 100) + "." + (fraction < 10 ? "0" : "") + String(fraction)
        if text.hasSuffix("0") { text.removeLast() }
        return text
    }
}

/// color-contrast and color-contrast-enhanced: one check at two thresholds, as axe-core's two
/// rules share their check with different options. A rule gives its metadata, its `contrast`
/// and its examples; the rest is here.
public protocol ContrastRule: Rule {
    /// The thresholds the rule holds text to.
    var contrast: ColorContrast { get }
}

extension ContrastRule {
    public var selector: SelectorList { ColorContrast.everyElement }
    /// Text hidden from screen readers is still seen, so it must be readable (axe's excludeHidden: false).
    public var excludesHidden: Bool { false }
    public var stylesRead: PropertySet { ColorContrast.paintingProperties }
    public func candidates(on page: PageContext) -> [Element]? { ColorContrast.candidates(on: page) }
    public func applies(to element: Element, on page: PageContext) -> Bool { ColorContrast.applies(to: element, on: page) }
    public func check(_ element: Element, on page: PageContext) -> CheckResult { contrast.check(element, on: page) }
    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome { check(element, on: page).outcome }
}

extension Unicode.GeneralCategory {
    var isPunctuation: Bool {
        switch self {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation, .finalPunctuation,
             .otherPunctuation:
            return true
        default:
            return false
        }
    }
}
