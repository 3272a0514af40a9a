import CanopyAccessibility
import CanopyHTML
import CanopyStyle
import Foundation

/// The facts about a page's boxes that the contrast check asks of every text element and all its
/// ancestors, each computed once per element from its parent's: the background behind it, the
/// opacity it is painted with, whether it is clipped away. Without this a deep page would cost
/// the square of its depth.
final class ContrastFacts {
    let styles: ComputedStyles
    // Per element position; allocated on first use. Sentinels: -1 (or 0 for flags) not computed.
    private var backgroundIndex: [Int32] = []
    private var backgroundValues: [ColorContrast.Background] = []
    private var opacities: [Float] = []
    /// 0 not computed, 1 no, 2 yes.
    private var clippedAway: [UInt8] = []
    private var transparent: [UInt8] = []
    /// Index into `texts`; -2 not computed, -1 none.
    private var fixedClips: [Int32] = []
    private var pseudoElements: [Int32] = []
    private var texts: [String] = []

    /// What computed values alone say, by style node, kept with the nodes for later pages.
    private let nodeFacts: NodeFacts

    /// By style node: most of a page's boxes share a few nodes, and the pages of a site share them.
    private final class NodeFacts {
        /// `ColorContrast.ownBackground`.
        var ownBackgrounds: [ColorContrast.OwnBackground?] = []
        /// The pseudo-element that paints over the box: 0 not known yet, 1 none, 2 `before`, 3 `after`.
        var ownPseudoElements: [UInt8] = []
        /// Whether the box hides what overflows it (`clipsOverflow`).
        var clipsOverflow: [UInt8] = []
        /// Whether the box hides its overflow and has no width or height (`hidesAllItHolds`).
        var hidesAll: [UInt8] = []
        /// Whether the box is positioned and clipped to nothing (the own part of `isTransparent`).
        var clipsToNothing: [UInt8] = []

        /// `compute`'s answer for `node` in `table`, computed once per node: 0 not known yet, 1 no, 2 yes.
        static func flag(_ table: inout [UInt8], _ node: Int, _ compute: () -> Bool) -> Bool {
            table.grow(toHold: node, with: 0)
            if table[node] != 0 { return table[node] == 2 }
            let answer = compute()
            table[node] = answer ? 2 : 1
            return answer
        }
    }

    private let model: AccessibilityModel
    /// Positions of the rendered elements that paint a background of their own, `<html>` and
    /// `<body>` aside, in document order; listed when a box is first found out of the normal flow.
    private var painters: [Int]?

    private init(styles: ComputedStyles, model: AccessibilityModel) {
        self.styles = styles
        self.model = model
        nodeFacts = styles.nodeFacts { NodeFacts() }
    }

    static func of(_ page: PageContext) -> ContrastFacts {
        page.memo("color-contrast.facts") { ContrastFacts(styles: page.styles, model: page.accessibility) }
    }

    /// Whether a box out of the normal flow (positioned, transformed, pulled by a margin) may lie
    /// over something that paints: any element outside its subtree that paints a background,
    /// ancestors included (the box may be moved out of them), except `<html>` and `<body>`, whose
    /// backgrounds cover the canvas. When none does, whatever the layout, only the canvas lies
    /// under the box (a page wrapped in one fixed box).
    func othersMayLieUnder(_ box: Element) -> Bool {
        if painters == nil {
            painters = styles.document.elements.filter { element in
                guard styles.mayPaintBackground(element), !model.isNotRendered(element) else { return false }
                if element.parent == nil || (element.localName == "body" && element.parent?.parent == nil) { return false }
                if styles.lowercasedValue(.backgroundImage, of: element) != "none" { return true }
                return (styles.colorValue(.backgroundColor, of: element)?.alpha ?? 1) > 0
            }.map(\.position)
        }
        // Sorted positions: those inside the box's subtree are one run, found by two searches.
        let all = painters!
        let first = all.binarySearchFirst { $0 >= box.position }
        let past = all[first...].binarySearchFirst { $0 >= box.descendants.endIndex }
        return all.count - (past - first) > 0
    }

    private var count: Int { styles.document.elementCount }

    private func text(_ index: Int32) -> String? { index >= 0 ? texts[Int(index)] : nil }

    private func store(_ text: String?) -> Int32 {
        guard let text else { return -1 }
        texts.append(text)
        return Int32(texts.count - 1)
    }

    // MARK: Background

    func ownBackground(of box: Element) -> ColorContrast.OwnBackground {
        let node = styles.styleNodeNumber(of: box)
        if node < nodeFacts.ownBackgrounds.count, let known = nodeFacts.ownBackgrounds[node] { return known }
        let computed = ColorContrast.ownBackground(of: box, styles)
        nodeFacts.ownBackgrounds.grow(toHold: node, with: nil)
        nodeFacts.ownBackgrounds[node] = computed
        return computed
    }

    /// The colour behind the element's text: backgrounds composited from the canvas (white) up
    /// to the first opaque one, unless a box on the way cannot be placed without layout.
    func background(of element: Element) -> ColorContrast.Background {
        if backgroundIndex.isEmpty { backgroundIndex = Array(repeating: -1, count: count) }
        let known = backgroundIndex[element.position]
        if known >= 0 { return backgroundValues[Int(known)] }
        let result: ColorContrast.Background
        switch ColorContrast.backgroundLayer(of: element, self) {
        case .unknown(let key, let message):
            result = .unknown(key: key, message: message)
        case .known(let own) where own.alpha >= 1:
            result = .known(own)
        case .known(let own):
            let parent = element.parentPosition
            let below = parent.map { background(atPosition: $0) } ?? .known(.white)
            if own.alpha == 0, let parent {
                // Most boxes paint nothing: they share their parent's entry instead of a copy.
                backgroundIndex[element.position] = backgroundIndex[parent]
                return below
            }
            switch below {
            case .known(let color): result = .known(own.alpha > 0 ? own.blended(over: color) : color)
            case .unknown: result = below
            }
        }
        backgroundValues.append(result)
        backgroundIndex[element.position] = Int32(backgroundValues.count - 1)
        return result
    }

    /// `background(of:)` of an ancestor, made an `Element` only when not known yet: the walks
    /// up below ask each element's parent, nearly always known, and making the parent retained
    /// the document each time (perf).
    private func background(atPosition position: Int) -> ColorContrast.Background {
        let known = backgroundIndex[position]
        if known >= 0 { return backgroundValues[Int(known)] }
        return background(of: styles.document.element(atPosition: position))
    }

    /// The product of the element's and its ancestors' opacity.
    func opacity(of element: Element) -> Double {
        if opacities.isEmpty { opacities = Array(repeating: -1, count: count) }
        let known = opacities[element.position]
        if known >= 0 { return Double(known) }
        let result = styles.opacity(of: element) * (element.parentPosition.map { opacity(atPosition: $0) } ?? 1)
        opacities[element.position] = Float(result)
        return result
    }

    private func opacity(atPosition position: Int) -> Double {
        let known = opacities[position]
        if known >= 0 { return Double(known) }
        return opacity(of: styles.document.element(atPosition: position))
    }

    /// `color` as the element's text shows it over `background`: faded by the opacity of the
    /// element and every box around it.
    func painted(_ color: RGBA, of element: Element, over background: RGBA) -> RGBA {
        var faded = color
        faded.alpha *= opacity(of: element)
        return faded.blended(over: background)
    }

    // MARK: Clipping

    /// Inside a box that hides its overflow and has no width or height: never seen.
    func isClippedAway(_ element: Element) -> Bool {
        if clippedAway.isEmpty { clippedAway = Array(repeating: 0, count: count) }
        let known = clippedAway[element.position]
        if known != 0 { return known == 2 }
        var result = false
        if let parent = element.parentPosition {
            // The parent's answers by position: nearly always known, and making it retained the document.
            let parentKnown = clippedAway[parent]
            let parentClippedAway = parentKnown != 0 ? parentKnown == 2 : isClippedAway(styles.document.element(atPosition: parent))
            result = parentClippedAway || hidesAllItHolds(atPosition: parent)
        }
        clippedAway[element.position] = result ? 2 : 1
        return result
    }

    /// `ColorContrast.clipsOverflow`, by style node: asked of every text element and its ancestors.
    func clipsOverflow(_ box: Element) -> Bool {
        NodeFacts.flag(&nodeFacts.clipsOverflow, styles.styleNodeNumber(of: box)) { ColorContrast.clipsOverflow(box, styles) }
    }

    /// The box hides what overflows it and has no width or height: by style node, as it follows
    /// from computed values alone (asked of the parent of every text element).
    private func hidesAllItHolds(atPosition position: Int) -> Bool {
        NodeFacts.flag(&nodeFacts.hidesAll, styles.styleNodeNumber(atPosition: position)) {
            let box = styles.document.element(atPosition: position)
            return clipsOverflow(box)
                && [CSSProperty.width, .height].contains { ColorContrast.pixels(styles.value($0, of: box)) == 0 }
        }
    }

    /// Drawn where it can be seen, as axe's isVisibleOnScreen reads markup and styles: rendered,
    /// not `visibility: hidden`, not transparent or clipped to nothing.
    func isSeen(_ element: Element) -> Bool {
        !model.isNotRendered(element) && !model.isVisibilityHidden(element) && !isTransparent(element)
    }

    /// `opacity: 0` on the element or an ancestor, or clipped to nothing by `clip: rect()`.
    func isTransparent(_ element: Element) -> Bool {
        if opacity(of: element) == 0 { return true }
        if transparent.isEmpty { transparent = Array(repeating: 0, count: count) }
        let known = transparent[element.position]
        if known != 0 { return known == 2 }
        var result = element.parentPosition.map { isTransparent(atPosition: $0) } ?? false
        if !result {
            // By style node: it follows from the element's computed values alone.
            result = NodeFacts.flag(&nodeFacts.clipsToNothing, styles.styleNodeNumber(of: element)) {
                let position = styles.lowercasedValue(.position, of: element)
                guard position == "absolute" || position == "fixed" else { return false }
                let clip = styles.lowercasedValue(.clip, of: element).replacingOccurrences(of: " ", with: "")
                return clip.hasPrefix("rect(") && Self.clipsToNothing(clip)
            }
        }
        transparent[element.position] = result ? 2 : 1
        return result
    }

    private func isTransparent(atPosition position: Int) -> Bool {
        // Known only once the opacity was: `isTransparent(_:)` asks it first, and stops at 0.
        let known = transparent[position]
        if known != 0 { return known == 2 }
        if opacities[position] == 0 { return true }
        return isTransparent(styles.document.element(atPosition: position))
    }

    private static func clipsToNothing(_ rect: String) -> Bool {
        let inner = rect.dropFirst(5).dropLast()
        let edges = inner.split(whereSeparator: { $0 == "," }).map { Double($0.replacingOccurrences(of: "px", with: "")) ?? -1 }
        guard edges.count == 4 else { return false }
        return edges[0] >= edges[2] || edges[3] >= edges[1]
    }

    /// The nearest box (the element or an ancestor) that hides its overflow and has a fixed
    /// width or height, described; nil when there is none.
    func fixedClip(around element: Element) -> String? {
        if fixedClips.isEmpty { fixedClips = Array(repeating: -2, count: count) }
        let known = fixedClips[element.position]
        if known != -2 { return text(known) }
        var result: String?
        if clipsOverflow(element), [CSSProperty.width, .height].contains(where: { property in
            let value = styles.value(property, of: element).lowercased()
            return value != "auto" && !value.hasSuffix("%")
        }) {
            result = "it sits in <\(element.localName)>, a box of fixed size that hides what overflows"
        } else {
            result = fixedClipAroundParent(of: element)
        }
        fixedClips[element.position] = store(result)
        return result
    }

    /// `fixedClip(around:)` of the element's parent, read by position when already known.
    func fixedClipAroundParent(of element: Element) -> String? {
        guard let parent = element.parentPosition else { return nil }
        if !fixedClips.isEmpty, fixedClips[parent] != -2 { return text(fixedClips[parent]) }
        return fixedClip(around: styles.document.element(atPosition: parent))
    }

    // MARK: Pseudo-elements

    /// `before` or `after` when the element or an ancestor has such a pseudo-element that is
    /// positioned over the content with a background of its own.
    func pseudoElementWithBackground(around element: Element) -> String? {
        if pseudoElements.isEmpty { pseudoElements = Array(repeating: -2, count: count) }
        let known = pseudoElements[element.position]
        if known != -2 { return text(known) }
        let result = ownPaintedPseudoElement(element) ?? element.parentPosition.flatMap { parent in
            let parentKnown = pseudoElements[parent]
            return parentKnown != -2 ? text(parentKnown) : pseudoElementWithBackground(around: styles.document.element(atPosition: parent))
        }
        pseudoElements[element.position] = store(result)
        return result
    }

    private func ownPaintedPseudoElement(_ box: Element) -> String? {
        let painting = styles.index.pseudoElementsWithBackgrounds
        guard !painting.isEmpty else { return nil }
        let node = styles.styleNodeNumber(of: box)
        nodeFacts.ownPseudoElements.grow(toHold: node, with: 0)
        switch nodeFacts.ownPseudoElements[node] {
        case 1: return nil
        case 2: return "before"
        case 3: return "after"
        default: break
        }
        let found = paintedPseudoElement(box, painting)
        nodeFacts.ownPseudoElements[node] = found == "before" ? 2 : found == "after" ? 3 : 1
        return found
    }

    private func paintedPseudoElement(_ box: Element, _ painting: Set<String>) -> String? {
        for pseudo in ["before", "after"] where painting.contains(pseudo) && styles.hasPseudoElementRules(pseudo, for: box) {
            let content = styles.pseudoElementValue(.content, of: box, pseudo: pseudo)?.lowercased() ?? "none"
            guard content != "none", content != "normal" else { continue }
            guard styles.pseudoElementValue(.display, of: box, pseudo: pseudo)?.lowercased() != "none",
                  styles.pseudoElementValue(.position, of: box, pseudo: pseudo)?.lowercased() == "absolute"
            else { continue }
            let background = styles.pseudoElementValue(.backgroundColor, of: box, pseudo: pseudo).flatMap { CSSColor.parse($0) }
            let image = styles.pseudoElementValue(.backgroundImage, of: box, pseudo: pseudo)?.lowercased() ?? "none"
            let paints: Bool
            switch background {
            case .rgba(let color)?: paints = color.alpha > 0
            case .currentColor?: paints = true
            case nil: paints = false
            }
            if paints || image != "none" { return pseudo }
        }
        return nil
    }
}
